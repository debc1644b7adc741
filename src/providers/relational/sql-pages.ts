import type { DialectFamily } from './dialect';
import type { NowMode, TableSql } from './entity-table';
import { filterWhere, type Filter } from './sql-read';
import type { SqlWriter, Statement } from './statement';

/*
 * The statements of findPage() and deleteMany(): a keyset walk on the primary key (ascending, the
 * primary key index's own order), filters and the live check in every statement, so each page is
 * judged at its own "now". Arguments: the filter values, then the last key of the previous page,
 * then the row count.
 */

type Arg = (i: number) => string;

function rowValueAfter(cols: readonly string[], arg: Arg): string {
  return `(${cols.join(', ')}) > (${cols.map((_, i) => arg(i)).join(', ')})`;
}

/**
 * MariaDB does not turn a row-value comparison into an index range; spelled out, with a leading
 * `k1 >=` that bounds it. Placeholders are `?` there, bound in the order they are written: each is
 * made where it is written.
 */
function spelledOutAfter(cols: readonly string[], arg: Arg): string {
  const lead = `${cols[0]} >= ${arg(0)}`;
  const terms = cols.map((_, i) => {
    const equal = cols.slice(0, i).map((c, j) => `${c} = ${arg(j)}`);
    const greater = `${cols[i]} > ${arg(i)}`;
    return `(${[...equal, greater].join(' AND ')})`;
  });
  return `${lead} AND (${terms.join(' OR ')})`;
}

/** A compound key's "after the last key", as each family's index range scan takes it. */
const AFTER_COMPOUND: Record<DialectFamily, (cols: readonly string[], arg: Arg) => string> = {
  sqlite: rowValueAfter,
  postgres: rowValueAfter,
  mysql: spelledOutAfter,
};

/** Rows after the last key of the previous page (args from `first` on, key order). */
function afterKey(t: TableSql, w: SqlWriter, first: number): string {
  const cols = t.keyColumns.map((k) => t.q(k));
  const arg: Arg = (i) => w.param({ kind: 'arg', index: first + i });
  if (cols.length === 1) return `${cols[0]} > ${arg(0)}`;
  return AFTER_COMPOUND[t.family.name](cols, arg);
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

/** How each family reads an expiry so that binding it back compares exactly (PostgreSQL keeps microseconds). */
const EXPIRY_TEXT: Record<DialectFamily, { read(e: string): string; same(e: string, p: string): string }> = {
  sqlite: { read: (e) => e, same: (e, p) => `${e} IS ${p}` },
  postgres: {
    read: (e) => `CAST(${e} AS text)`,
    same: (e, p) => `${e} IS NOT DISTINCT FROM CAST(${p} AS timestamp with time zone)`,
  },
  mysql: { read: (e) => `CAST(${e} AS CHAR)`, same: (e, p) => `${e} <=> CAST(${p} AS DATETIME(3))` },
};

/** deleteMany()'s selection: the keys (as bound again) and, when emulated, the expiry of up to `limit` live matches. */
export function deleteSelect(t: TableSql, mode: NowMode, filters: readonly Filter[], after: boolean): Statement {
  const w = t.writer();
  const { where, next } = pageWhere(t, w, filters, mode, after);
  // Named by its position, as every column a read selects (MariaDB/MySQL rows are read by those names).
  const position = t.q(String(t.keyColumns.length));
  const expiry = t.expiryColumn ? `, ${EXPIRY_TEXT[t.family.name].read(t.q(t.expiryColumn))} AS ${position}` : '';
  const limit = w.param({ kind: 'arg', index: next });
  const sql = `SELECT ${t.keySelectList()}${expiry} FROM ${t.table}${where} ORDER BY ${keyOrder(t)} LIMIT ${limit}`;
  return t.finish(w, sql, true);
}

/**
 * Deletes `count` selected rows (args: the filter values, then per row its key columns and, when
 * emulated, its expiry as selected) that still match, are live, and keep the expiry they were
 * selected with: the purge's re-check, so a row rewritten since the selection survives.
 */
export function deleteSelected(t: TableSql, mode: NowMode, filters: readonly Filter[], count: number): Statement {
  const w = t.writer();
  const { where, next } = filterWhere(t, w, filters, mode);
  const width = t.keyColumns.length + (t.expiryColumn ? 1 : 0);
  const rows: string[] = [];
  for (let row = 0; row < count; row++) {
    const arg = (j: number) => w.param({ kind: 'arg', index: next + row * width + j });
    const parts = t.keyColumns.map((k, j) => `${t.q(k)} = ${arg(j)}`);
    if (t.expiryColumn) {
      parts.push(EXPIRY_TEXT[t.family.name].same(t.q(t.expiryColumn), arg(t.keyColumns.length)));
    }
    rows.push(`(${parts.join(' AND ')})`);
  }
  const picked = `(${rows.join(' OR ')})`;
  return t.finish(w, `DELETE FROM ${t.table}${where ? `${where} AND ${picked}` : ` WHERE ${picked}`}`, false);
}
