import type { ColumnSpec, TableSpec } from '../compile';
import { sqlFamily } from '../families/by-dialect';
import type { RelationalDialect } from '../families/dialects';
import type { ExpirySql, SqlFamily } from '../families/family';
import { SqlWriter, type Statement } from './statement';

/** Where "now" comes from in a statement: the database clock, or a bound parameter. */
export type NowMode = 'db' | 'param';

/**
 * Everything the SQL builders of one table need, computed once from the table spec alone: the
 * statement tests build it without an entity or a session; EntityTable adds the runtime.
 */
export class TableSql {
  readonly family: SqlFamily;
  readonly expiry: ExpirySql;
  readonly table: string;
  /** Columns holding model members, in model order: the order of `cols` and of selected rows. */
  readonly dataColumns: readonly ColumnSpec[];
  readonly keyColumns: readonly string[];
  /** Index in dataColumns of each primary key column. */
  readonly keyIndexes: readonly number[];
  readonly expiryColumn: string | null;
  readonly bigints: boolean;

  constructor(
    readonly dialect: RelationalDialect,
    readonly spec: TableSpec,
    /** The @CreatedAt column: kept when an upsert overwrites a live row. */
    readonly createdAtColumn: string | null,
  ) {
    this.family = sqlFamily(dialect);
    this.expiry = this.family.expiry;
    this.table = this.q(spec.table);
    this.dataColumns = spec.columns.filter((c) => c.member !== null);
    this.keyColumns = spec.primaryKey;
    this.keyIndexes = spec.primaryKey.map((k) => this.dataColumns.findIndex((c) => c.name === k));
    this.expiryColumn = spec.expiry ? spec.expiry.column : null;
    this.bigints = spec.columns.some((c) => c.fieldType === 'bigint');
  }

  q(name: string): string {
    return this.family.quote(name);
  }

  writer(): SqlWriter {
    return new SqlWriter(this.dialect);
  }

  finish(w: SqlWriter, sql: string, reads: boolean): Statement {
    return w.finish(sql, this.spec.entity, reads, this.bigints);
  }

  now(w: SqlWriter, mode: NowMode): string {
    return mode === 'db' ? this.expiry.dbNow : this.expiry.nowParam(w.param({ kind: 'now' }));
  }

  /** The member columns in model order, as the family reads them. */
  selectList(): string {
    return this.dataColumns.map((c, i) => this.family.selectColumn(this.q(c.name), c.fieldType, i)).join(', ');
  }

  /** The key columns in key order, as the family reads them (picked keys are bound again). */
  keySelectList(): string {
    return this.keyColumns
      .map((k, i) => {
        const column = this.dataColumns[this.keyIndexes[i] as number] as ColumnSpec;
        return this.family.selectColumn(this.q(k), column.fieldType, i);
      })
      .join(', ');
  }

  /** `"id" = ?` for every key member, bound from the key. */
  keyMatch(w: SqlWriter, from: 'key' | 'col' = 'key'): string {
    return this.keyColumns
      .map(
        (k, i) =>
          `${this.q(k)} = ${w.param({ kind: from, index: from === 'key' ? i : (this.keyIndexes[i] as number) })}`,
      )
      .join(' AND ');
  }

  /** ` AND (expires_at IS NULL OR expires_at > now)`, or nothing without emulation. */
  live(w: SqlWriter, mode: NowMode): string {
    if (!this.expiryColumn) return '';
    const e = this.q(this.expiryColumn);
    return ` AND (${e} IS NULL OR ${e} > ${this.now(w, mode)})`;
  }
}
