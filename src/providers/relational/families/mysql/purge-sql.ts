import type { NowMode, TableSql } from '../../table/table-sql';
import type { Statement } from '../../table/statement';
import { due, keyList } from '../../purge/purge-sql';

/**
 * MariaDB/MySQL, first half of a batch: the keys of up to n due rows, oldest first, locked. With
 * SKIP LOCKED (MariaDB 10.6+, MySQL 8) rows a writer holds are passed over, so the purge never
 * waits on a writer and never joins a lock cycle; without it the caller retries deadlocks.
 */
export function pickBatch(t: TableSql, mode: NowMode, ex: string, n: number, skipLocked: boolean): Statement {
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
export function deleteKeys(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
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
