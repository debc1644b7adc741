import type { NowMode, TableSql } from '../../table/table-sql';
import type { Statement } from '../../table/statement';
import { due, keyList } from '../../purge/purge-sql';

/**
 * SQLite, one walk of the expiry index: the batch's boundary is the expiry of the (n+1)-th due
 * row (read from the index alone), and the DELETE takes the due range below it — the same index
 * range scan the plain `DELETE … WHERE expires_at <= now` does, cut short. Strictly below, so rows
 * sharing the boundary instant cannot make a batch larger than n; when the first n+1 due rows all
 * share one instant the range is empty and the caller takes that batch by key (keyedBatch).
 */
export function rangeBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
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
export function keyedBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
  const w = t.writer();
  const e = t.q(ex);
  // The primary key, not rowid: a WITHOUT ROWID table has none.
  const { keys, target } = keyList(t);
  const pick = `SELECT ${keys} FROM ${t.table} WHERE ${due(t, w, mode, ex)} ORDER BY ${e} LIMIT ${n}`;
  return t.finish(w, `DELETE FROM ${t.table} WHERE ${target} IN (${pick})`, false);
}
