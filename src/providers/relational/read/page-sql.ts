import type { FieldType } from '../../../model/types';
import type { NowMode, TableSql } from '../table/table-sql';
import { filterWhere, type Filter } from './read-sql';
import type { SqlWriter, Statement } from '../table/statement';

/*
 * The statements of findPage() and deleteMany(): a keyset walk on the primary key (ascending, the
 * primary key index's own order), filters and the live check in every statement, so each page is
 * judged at its own "now". Arguments: the filter values, then the last key of the previous page,
 * then the row count.
 */

/** Rows after the last key of the previous page (args from `first` on, key order). */
function afterKey(t: TableSql, w: SqlWriter, first: number): string {
  const cols = t.keyColumns.map((k) => t.q(k));
  const arg = (i: number) => w.param({ kind: 'arg', index: first + i });
  if (cols.length === 1) return `${cols[0]} > ${arg(0)}`;
  return t.family.afterCompoundKey(cols, arg);
}

function keyOrder(t: TableSql): string {
  return t.keyColumns.map((k) => `${t.q(k)} ASC`).join(', ');
}

/** WHERE with the filters, the live check and (after a first page) the keyset bound. */
function pageWhere(t: TableSql, w: SqlWriter, filters: readonly Filter[], mode: NowMode, after: boolean) {
  const { where, next } = filterWhere(t, w, filters, mode);
  if (!after) return { where, next };
  const bound = afterKey(t, w, next);
  return { where: where ? `${where} AND ${bound}` : ` WHERE ${bound}`, next: next + t.keyColumns.length };
}

/** One page: the member columns of up to `limit` rows (the limit is the last argument). */
export function pageSelect(t: TableSql, mode: NowMode, filters: readonly Filter[], after: boolean): Statement {
  const w = t.writer();
  const { where, next } = pageWhere(t, w, filters, mode, after);
  const limit = w.param({ kind: 'arg', index: next });
  return t.finish(w, `SELECT ${t.selectList()} FROM ${t.table}${where} ORDER BY ${keyOrder(t)} LIMIT ${limit}`, true);
}

/**
 * The columns deleteMany() re-checks, after the key: every non-key member column and the emulated
 * expiry, so a row rewritten in any way since its selection (a record without expiry, or one
 * rewritten with the same expiry instant, too) no longer matches and is spared.
 */
function checkedColumns(t: TableSql): Array<{ column: string; type: FieldType | null }> {
  const keys = new Set(t.keyColumns);
  const data = t.dataColumns.filter((c) => !keys.has(c.name)).map((c) => ({ column: c.name, type: c.fieldType }));
  return t.expiryColumn && !data.some((c) => c.column === t.expiryColumn)
    ? [...data, { column: t.expiryColumn, type: null }]
    : data;
}

/** Values one selected row binds in deleteSelected(): its key columns and its checked columns. */
export function selectedWidth(t: TableSql): number {
  return t.keyColumns.length + checkedColumns(t).length;
}

/** deleteMany()'s selection: the keys (as bound again) and every checked column of up to `limit` live matches. */
export function deleteSelect(t: TableSql, mode: NowMode, filters: readonly Filter[], after: boolean): Statement {
  const w = t.writer();
  const { where, next } = pageWhere(t, w, filters, mode, after);
  // Named by its position, as every column a read selects (MariaDB/MySQL rows are read by those names).
  const checked = checkedColumns(t).map(
    ({ column, type }, i) =>
      `, ${t.family.selectedValue.read(t.q(column), type)} AS ${t.q(String(t.keyColumns.length + i))}`,
  );
  const limit = w.param({ kind: 'arg', index: next });
  const sql = `SELECT ${t.keySelectList()}${checked.join('')} FROM ${t.table}${where} ORDER BY ${keyOrder(t)} LIMIT ${limit}`;
  return t.finish(w, sql, true);
}

/**
 * Deletes `count` selected rows (args: the filter values, then per row its key columns and its
 * checked columns as selected) that still match, are live, and hold every value they were
 * selected with: a row rewritten after its batch selected it survives.
 */
export function deleteSelected(t: TableSql, mode: NowMode, filters: readonly Filter[], count: number): Statement {
  const w = t.writer();
  const { where, next } = filterWhere(t, w, filters, mode);
  const checked = checkedColumns(t);
  const width = selectedWidth(t);
  const rows: string[] = [];
  for (let row = 0; row < count; row++) {
    const arg = (j: number) => w.param({ kind: 'arg', index: next + row * width + j });
    const parts = t.keyColumns.map((k, j) => `${t.q(k)} = ${arg(j)}`);
    checked.forEach(({ column, type }, j) => {
      parts.push(t.family.selectedValue.same(t.q(column), type, arg(t.keyColumns.length + j)));
    });
    rows.push(`(${parts.join(' AND ')})`);
  }
  const picked = `(${rows.join(' OR ')})`;
  return t.finish(w, `DELETE FROM ${t.table}${where ? `${where} AND ${picked}` : ` WHERE ${picked}`}`, false);
}
