import type { NowMode, TableSql } from '../table/table-sql';
import type { SqlWriter } from '../table/statement';

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
