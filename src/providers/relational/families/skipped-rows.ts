import { bind, type SqlWriter, type Statement } from '../table/statement';
import type { NowMode, TableSql } from '../table/table-sql';
import { modeOf, type PurgeContext } from '../purge/batch';
import { due } from '../purge/purge-sql';

/*
 * What PostgreSQL and MariaDB/MySQL share, and only they: their purges pass over rows a writer
 * holds (FOR UPDATE SKIP LOCKED, MariaDB 10.6+ and MySQL 8), and count afterwards what they left.
 * SQLite has no row locks and no FOR UPDATE; its purge never skips a row.
 */

/**
 * How many rows are due but held locked by other transactions right now — all due rows (or those
 * `dueRows` selects) less those a locking read can take (each taken lock is released when the
 * statement's transaction ends). What a purge that skips locked rows left behind.
 */
export function lockedDueCount(
  t: TableSql,
  mode: NowMode,
  ex: string,
  dueRows: (w: SqlWriter) => string = (w) => due(t, w, mode, ex),
): Statement {
  const w = t.writer();
  // Written twice, not reused: positional placeholders (MariaDB/MySQL) bind one value per `?`.
  const where = () => dueRows(w);
  const all = `SELECT count(*) FROM ${t.table} WHERE ${where()}`;
  const free = `SELECT count(*) FROM (SELECT 1 FROM ${t.table} WHERE ${where()} FOR UPDATE SKIP LOCKED) AS l`;
  return t.finish(w, `SELECT CAST((${all}) - (${free}) AS ${t.family.integerCast})`, true);
}

/**
 * Due rows other transactions hold locked, counted once the batches are done. A locking read
 * takes its locks only for its own transaction: one statement on its own (PostgreSQL), or in the
 * transaction `opening` begins (MariaDB/MySQL: READ COMMITTED, no gap locks).
 */
export async function lockedLeft(c: PurgeContext, opening?: readonly string[]): Promise<number> {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const s = t.statement(`purge:locked-due:${mode}`, () => lockedDueCount(t, mode, ex));
  const params = bind(s, { now });
  const rows = opening
    ? await executor.transaction((tx) => tx.rows(s, params), opening)
    : await executor.rows(s, params);
  return Number(rows[0]?.[0] ?? 0);
}
