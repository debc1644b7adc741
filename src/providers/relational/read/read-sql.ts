import type { NowMode, TableSql } from '../table/table-sql';
import type { Statement } from '../table/statement';

/** An equality filter of find/count/deleteWhere: the column, and whether the value is NULL. */
export interface Filter {
  readonly column: string;
  readonly isNull: boolean;
}

export function selectByKey(t: TableSql, mode: NowMode): Statement {
  const w = t.writer();
  const where = t.keyMatch(w) + t.live(w, mode);
  return t.finish(w, `SELECT ${t.selectList()} FROM ${t.table} WHERE ${where}`, true);
}

export function existsByKey(t: TableSql, mode: NowMode): Statement {
  const w = t.writer();
  const where = t.keyMatch(w) + t.live(w, mode);
  return t.finish(w, `SELECT 1 FROM ${t.table} WHERE ${where} LIMIT 1`, true);
}

/** `count` keys per statement: a fixed shape, padded by repeating the last key. */
export function selectByKeys(t: TableSql, mode: NowMode, count: number): Statement {
  const w = t.writer();
  const width = t.keyColumns.length;
  let match: string;
  if (width === 1) {
    const params = Array.from({ length: count }, (_, i) => w.param({ kind: 'arg', index: i }));
    match = `${t.q(t.keyColumns[0] as string)} IN (${params.join(', ')})`;
  } else {
    const terms = Array.from({ length: count }, (_, row) => {
      const parts = t.keyColumns.map((k, j) => `${t.q(k)} = ${w.param({ kind: 'arg', index: row * width + j })}`);
      return `(${parts.join(' AND ')})`;
    });
    match = terms.join(' OR ');
  }
  const where = `(${match})${t.live(w, mode)}`;
  return t.finish(w, `SELECT ${t.selectList()} FROM ${t.table} WHERE ${where}`, true);
}

export function deleteByKey(t: TableSql, mode: NowMode): Statement {
  const w = t.writer();
  const where = t.keyMatch(w) + t.live(w, mode);
  return t.finish(w, `DELETE FROM ${t.table} WHERE ${where}`, false);
}

/** Remaining milliseconds of a live row (NULL: never expires); no row: missing or expired. */
export function ttlByKey(t: TableSql, mode: NowMode, expiryColumn: string): Statement {
  const w = t.writer();
  const remaining = t.expiry.remainingMs(t.q(expiryColumn), t.now(w, mode));
  const where = t.keyMatch(w) + t.live(w, mode);
  return t.finish(w, `SELECT ${remaining} FROM ${t.table} WHERE ${where}`, true);
}

export function filterWhere(t: TableSql, w: ReturnType<TableSql['writer']>, filters: readonly Filter[], mode: NowMode) {
  let arg = 0;
  const parts = filters.map((f) =>
    f.isNull ? `${t.q(f.column)} IS NULL` : `${t.q(f.column)} = ${w.param({ kind: 'arg', index: arg++ })}`,
  );
  const live = t.live(w, mode);
  const where = parts.length > 0 ? parts.join(' AND ') + live : live ? live.slice(' AND '.length) : '';
  return { where: where ? ` WHERE ${where}` : '', next: arg };
}

export function findWhere(t: TableSql, mode: NowMode, filters: readonly Filter[], limited: boolean): Statement {
  const w = t.writer();
  const { where, next } = filterWhere(t, w, filters, mode);
  const order = t.spec.orderBy.map((o) => `${t.q(o.column)} ${o.order === 'desc' ? 'DESC' : 'ASC'}`).join(', ');
  const limit = limited ? ` LIMIT ${w.param({ kind: 'arg', index: next })}` : '';
  return t.finish(w, `SELECT ${t.selectList()} FROM ${t.table}${where} ORDER BY ${order}${limit}`, true);
}

export function countWhere(t: TableSql, mode: NowMode, filters: readonly Filter[]): Statement {
  const w = t.writer();
  const { where } = filterWhere(t, w, filters, mode);
  return t.finish(w, `SELECT COUNT(*) FROM ${t.table}${where}`, true);
}

export function deleteWhere(t: TableSql, mode: NowMode, filters: readonly Filter[]): Statement {
  const w = t.writer();
  const { where } = filterWhere(t, w, filters, mode);
  return t.finish(w, `DELETE FROM ${t.table}${where}`, false);
}

/** The part of a filter that changes its statement (the columns, and which are IS NULL): one statement per shape. */
export function filterShape(filters: readonly Filter[]): string {
  return filters.map((f) => (f.isNull ? `${f.column}!` : f.column)).join(',');
}
