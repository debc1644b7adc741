import type { NowMode, TableSql } from './sql-context';
import type { Statement } from './statement';

/**
 * One purge batch as a single DELETE: it picks up to `batchSize` rows due at `now`, oldest first,
 * and deletes them in the same statement, so selection and deletion see the same rows. A row a
 * writer renewed before the statement is no longer due and is never picked; a row renewed while it
 * runs is re-checked against `expires_at <= now` once its lock is granted (PostgreSQL, MariaDB) or
 * cannot change at all (SQLite's single writer).
 */
export function purgeBatch(t: TableSql, mode: NowMode, ex: string, batchSize: number): Statement {
  const w = t.writer();
  const e = t.q(ex);
  const due = () => `${e} <= ${t.now(w, mode)}`;
  switch (t.family) {
    case 'sqlite': {
      // The primary key, not rowid: a WITHOUT ROWID table has none.
      const keys = t.keyColumns.map((k) => t.q(k)).join(', ');
      const target = t.keyColumns.length === 1 ? keys : `(${keys})`;
      const pick = `SELECT ${keys} FROM ${t.table} WHERE ${due()} ORDER BY ${e} LIMIT ${batchSize}`;
      return t.finish(w, `DELETE FROM ${t.table} WHERE ${target} IN (${pick})`, false);
    }
    case 'postgres': {
      // ctid: a TID scan finds the picked rows without a second index walk. SKIP LOCKED leaves rows a
      // writer holds to a later batch or run instead of waiting on them; the outer re-check decides
      // for a row renewed between the pick and the delete.
      const pick = `SELECT ctid FROM ${t.table} WHERE ${due()} ORDER BY ${e} LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
      return t.finish(w, `DELETE FROM ${t.table} WHERE ctid = ANY(ARRAY(${pick})) AND ${due()}`, false);
    }
    case 'mysql':
      return t.finish(w, `DELETE FROM ${t.table} WHERE ${due()} ORDER BY ${e} LIMIT ${batchSize}`, false);
  }
}
