import type { NowMode, TableSql } from '../../table/table-sql';
import type { SqlWriter, Statement } from '../../table/statement';
import { due } from '../../purge/purge-sql';
import { lockedDueCount } from '../skipped-rows';

/**
 * PostgreSQL, by the expiry index: up to n due rows, oldest first. SKIP LOCKED leaves rows a
 * writer holds to a later run instead of waiting on them; the outer re-check decides for a row
 * renewed between the pick and the delete. For purges where few rows are due.
 */
export function indexBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
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
 * the range with blocksSkipLockedBatch).
 */
export function blocksBatch(t: TableSql, mode: NowMode, ex: string): Statement {
  const w = t.writer();
  return t.finish(w, `DELETE FROM ${t.table} WHERE ${dueInBlocks(t, w, mode, ex)}`, false);
}

/** PostgreSQL: due rows other transactions hold locked in one range of heap blocks (args as blocksBatch). */
export function lockedDueInBlocks(t: TableSql, mode: NowMode, ex: string): Statement {
  return lockedDueCount(t, mode, ex, (w) => dueInBlocks(t, w, mode, ex));
}

/** The same block range, leaving rows other transactions hold locked to the next run. */
export function blocksSkipLockedBatch(t: TableSql, mode: NowMode, ex: string): Statement {
  const w = t.writer();
  const pick = `SELECT ctid FROM ${t.table} WHERE ${dueInBlocks(t, w, mode, ex)} FOR UPDATE SKIP LOCKED`;
  return t.finish(w, `DELETE FROM ${t.table} WHERE ctid = ANY(ARRAY(${pick})) AND ${due(t, w, mode, ex)}`, false);
}

function blockCountSql(w: SqlWriter): string {
  const name = w.param({ kind: 'arg', index: 0 });
  return `CAST(pg_relation_size(CAST(${name} AS regclass)) / current_setting('block_size')::bigint AS integer)`;
}

/** PostgreSQL: the table's size in heap blocks (arg: the quoted table name). */
export function tableBlocks(t: TableSql): Statement {
  const w = t.writer();
  return t.finish(w, `SELECT ${blockCountSql(w)}`, true);
}

/**
 * PostgreSQL, in one round trip: the table's size in heap blocks (arg 0: the quoted table name)
 * and its due rows counted up to that size or to arg 1, whichever is more — enough to choose
 * between the block walk and the index path without reading every due entry of the index.
 */
export function blocksAndDue(t: TableSql, mode: NowMode, ex: string): Statement {
  const w = t.writer();
  const blocks = blockCountSql(w);
  const least = w.param({ kind: 'arg', index: 1 });
  const dueRows = `SELECT 1 FROM ${t.table} WHERE ${due(t, w, mode, ex)} LIMIT greatest(b, CAST(${least} AS integer))`;
  const sql = `SELECT b, CAST((SELECT count(*) FROM (${dueRows}) AS d) AS integer) FROM (SELECT ${blocks} AS b) AS s`;
  return t.finish(w, sql, true);
}
