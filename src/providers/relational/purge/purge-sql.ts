import type { DialectFamily } from '../families/dialects';
import type { NowMode, TableSql } from '../table/entity-table';
import type { SqlWriter, Statement } from '../table/statement';

/*
 * The purge statements. Every DELETE carries `expires_at <= now` itself, so a row a writer renewed
 * before the statement reached it is no longer due there and survives; on PostgreSQL and MariaDB a
 * row renewed while the statement waits on its lock is re-checked once the lock is granted.
 */

function due(t: TableSql, w: SqlWriter, mode: NowMode, ex: string): string {
  return `${t.q(ex)} <= ${t.now(w, mode)}`;
}

function keyList(t: TableSql): { keys: string; target: string } {
  const keys = t.keyColumns.map((k) => t.q(k)).join(', ');
  return { keys, target: t.keyColumns.length === 1 ? keys : `(${keys})` };
}

/**
 * SQLite, one walk of the expiry index: the batch's boundary is the expiry of the (n+1)-th due
 * row (read from the index alone), and the DELETE takes the due range below it — the same index
 * range scan the plain `DELETE … WHERE expires_at <= now` does, cut short. Strictly below, so rows
 * sharing the boundary instant cannot make a batch larger than n; when the first n+1 due rows all
 * share one instant the range is empty and the caller takes that batch by key (sqliteKeyedBatch).
 */
export function sqliteRangeBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
  const w = t.writer();
  const e = t.q(ex);
  const boundary = `SELECT ${e} FROM ${t.table} WHERE ${due(t, w, mode, ex)} ORDER BY ${e} LIMIT 1 OFFSET ${n}`;
  // One upper bound only, so the index range ends at it: with `expires_at <= now` beside it SQLite
  // may bound the scan by now and test the boundary per row, reading every due entry each batch.
  // Fewer than n+1 due rows: no boundary, and `< now + 1` is `<= now` (whole milliseconds).
  const sql = `DELETE FROM ${t.table} WHERE ${e} < coalesce((${boundary}), ${t.now(w, mode)} + 1)`;
  return t.finish(w, sql, false);
}

/** Up to n due rows, oldest first, picked and deleted by primary key in one statement. */
export function sqliteKeyedBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
  const w = t.writer();
  const e = t.q(ex);
  // The primary key, not rowid: a WITHOUT ROWID table has none.
  const { keys, target } = keyList(t);
  const pick = `SELECT ${keys} FROM ${t.table} WHERE ${due(t, w, mode, ex)} ORDER BY ${e} LIMIT ${n}`;
  return t.finish(w, `DELETE FROM ${t.table} WHERE ${target} IN (${pick})`, false);
}

/**
 * PostgreSQL, by the expiry index: up to n due rows, oldest first. SKIP LOCKED leaves rows a
 * writer holds to a later run instead of waiting on them; the outer re-check decides for a row
 * renewed between the pick and the delete. For purges where few rows are due.
 */
export function pgIndexBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
  const w = t.writer();
  const e = t.q(ex);
  const pick = `SELECT ctid FROM ${t.table} WHERE ${due(t, w, mode, ex)} ORDER BY ${e} LIMIT ${n} FOR UPDATE SKIP LOCKED`;
  return t.finish(w, `DELETE FROM ${t.table} WHERE ctid = ANY(ARRAY(${pick})) AND ${due(t, w, mode, ex)}`, false);
}

/**
 * The due rows of one range of heap blocks (args: '(first,0)', '(end,0)'). `IS TRUE` (same rows:
 * NULL is not due) keeps the expiry index out of the plan, which on a small or freshly changed
 * table (or under a generic plan, where the TID range's selectivity is a guess) would otherwise
 * look cheaper than the range of blocks: then the plan reads every due entry of the index, dead
 * ones included. The batch, the batch past locked rows and the locked count all select with it.
 */
function dueInBlocks(t: TableSql, w: SqlWriter, mode: NowMode, ex: string): string {
  const from = w.param({ kind: 'arg', index: 0 });
  const to = w.param({ kind: 'arg', index: 1 });
  return `ctid >= CAST(${from} AS tid) AND ctid < CAST(${to} AS tid) AND (${due(t, w, mode, ex)}) IS TRUE`;
}

/**
 * PostgreSQL, by the heap: the due rows of one range of heap blocks, read in physical order by a
 * TID range scan, each page once — what the plain DELETE's sequential scan does, cut into pieces.
 * It waits on a row a writer holds (the caller bounds the wait with lock_timeout and then takes
 * the range with pgBlocksSkipLockedBatch).
 */
export function pgBlocksBatch(t: TableSql, mode: NowMode, ex: string): Statement {
  const w = t.writer();
  return t.finish(w, `DELETE FROM ${t.table} WHERE ${dueInBlocks(t, w, mode, ex)}`, false);
}

/** PostgreSQL: due rows other transactions hold locked in one range of heap blocks (args as pgBlocksBatch). */
export function pgLockedDueInBlocks(t: TableSql, mode: NowMode, ex: string): Statement {
  return lockedDueCount(t, mode, ex, (w) => dueInBlocks(t, w, mode, ex));
}

/** The same block range, leaving rows other transactions hold locked to the next run. */
export function pgBlocksSkipLockedBatch(t: TableSql, mode: NowMode, ex: string): Statement {
  const w = t.writer();
  const pick = `SELECT ctid FROM ${t.table} WHERE ${dueInBlocks(t, w, mode, ex)} FOR UPDATE SKIP LOCKED`;
  return t.finish(w, `DELETE FROM ${t.table} WHERE ctid = ANY(ARRAY(${pick})) AND ${due(t, w, mode, ex)}`, false);
}

function blockCountSql(w: SqlWriter): string {
  const name = w.param({ kind: 'arg', index: 0 });
  return `CAST(pg_relation_size(CAST(${name} AS regclass)) / current_setting('block_size')::bigint AS integer)`;
}

/** PostgreSQL: the table's size in heap blocks (arg: the quoted table name). */
export function pgBlockCount(t: TableSql): Statement {
  const w = t.writer();
  return t.finish(w, `SELECT ${blockCountSql(w)}`, true);
}

/**
 * PostgreSQL, in one round trip: the table's size in heap blocks (arg 0: the quoted table name)
 * and its due rows counted up to that size or to arg 1, whichever is more — enough to choose
 * between the block walk and the index path without reading every due entry of the index.
 */
export function pgBlocksAndDue(t: TableSql, mode: NowMode, ex: string): Statement {
  const w = t.writer();
  const blocks = blockCountSql(w);
  const least = w.param({ kind: 'arg', index: 1 });
  const dueRows = `SELECT 1 FROM ${t.table} WHERE ${due(t, w, mode, ex)} LIMIT greatest(b, CAST(${least} AS integer))`;
  const sql = `SELECT b, CAST((SELECT count(*) FROM (${dueRows}) AS d) AS integer) FROM (SELECT ${blocks} AS b) AS s`;
  return t.finish(w, sql, true);
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

/**
 * MariaDB/MySQL, first half of a batch: the keys of up to n due rows, oldest first, locked. With
 * SKIP LOCKED (MariaDB 10.6+, MySQL 8) rows a writer holds are passed over, so the purge never
 * waits on a writer and never joins a lock cycle; without it the caller retries deadlocks.
 */
export function mysqlPickBatch(t: TableSql, mode: NowMode, ex: string, n: number, skipLocked: boolean): Statement {
  const w = t.writer();
  const keys = t.keySelectList();
  const lock = skipLocked ? 'FOR UPDATE SKIP LOCKED' : 'FOR UPDATE';
  const sql = `SELECT ${keys} FROM ${t.table} WHERE ${due(t, w, mode, ex)} ORDER BY ${t.q(ex)} LIMIT ${n} ${lock}`;
  return t.finish(w, sql, true);
}

/**
 * Second half: delete the n picked keys (args, key by key, column by column) with the expiry
 * re-checked, through the primary key only. Shorter pick lists are padded by repeating a key, so one statement per size serves.
 */
export function mysqlDeleteKeys(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
  const w = t.writer();
  const { target } = keyList(t);
  const width = t.keyColumns.length;
  const tuples: string[] = [];
  for (let i = 0; i < n; i++) {
    const cols = t.keyColumns.map((_, j) => w.param({ kind: 'arg', index: i * width + j }));
    tuples.push(width === 1 ? (cols[0] as string) : `(${cols.join(', ')})`);
  }
  // FORCE INDEX (PRIMARY), which only the multi-table form takes: on a small table the optimizer
  // prefers a full scan for a long IN list, and a scan waits on the rows a writer holds.
  const sql =
    `DELETE ${t.table} FROM ${t.table} FORCE INDEX (PRIMARY) ` +
    `WHERE ${target} IN (${tuples.join(', ')}) AND ${due(t, w, mode, ex)}`;
  return t.finish(w, sql, false);
}

type BatchOpener = (t: TableSql, mode: NowMode, ex: string, n: number) => Statement;

/** The statement that opens a batch of n rows on each family's index walk (what explain and the plan snapshots show). */
const BATCH_OPENERS: Record<DialectFamily, BatchOpener> = {
  sqlite: sqliteRangeBatch,
  postgres: pgIndexBatch,
  mysql: (t, mode, ex, n) => mysqlPickBatch(t, mode, ex, n, true),
};

export function purgeBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
  return BATCH_OPENERS[t.family.name](t, mode, ex, n);
}
