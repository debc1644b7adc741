import type { NowMode, TableSql } from '../table/table-sql';
import type { SqlWriter, Statement } from '../table/statement';

/*
 * The purge statements. Every DELETE carries `expires_at <= now` itself, so a row a writer renewed
 * before the statement reached it is no longer due there and survives; on PostgreSQL and MariaDB a
 * row renewed while the statement waits on its lock is re-checked once the lock is granted.
 */

/** `expires_at <= now`: what every purge statement deletes. */
export function due(t: TableSql, w: SqlWriter, mode: NowMode, ex: string): string {
  return `${t.q(ex)} <= ${t.now(w, mode)}`;
}

/** The quoted key columns, and the IN target they form (a row value for a compound key). */
export function keyList(t: TableSql): { keys: string; target: string } {
  const keys = t.keyColumns.map((k) => t.q(k)).join(', ');
  return { keys, target: t.keyColumns.length === 1 ? keys : `(${keys})` };
}

/**
 * PostgreSQL, MariaDB 10.6+, MySQL 8: how many rows are due but held locked by other transactions
 * right now — all due rows (or those `dueRows` selects) less those a locking read can take (each
 * taken lock is released when the statement's transaction ends). What a purge that skips locked
 * rows left behind.
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
