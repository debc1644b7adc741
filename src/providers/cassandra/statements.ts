import type { ColumnMapping, EntityMapping } from './compile';
import { qualified, quoteId } from './cql';

/**
 * The CQL text of one table's reads and writes. Values are always bound (`?`) and the statements
 * prepared, so the text is fixed per table and per shape.
 */
export class TableStatements {
  readonly table: string;
  private readonly all: readonly ColumnMapping[];
  /** The INSERT text of each shape (see insert), by its three flags as bits. */
  private readonly inserts: (string | undefined)[] = [];
  /**
   * The texts a unit of work asks for once per row (the key check, the delete), built on first use:
   * building them on every call was ~4% of the Cassandra insert job's CPU (docs/performance.md).
   */
  private readonly fixed: { byKey?: string; exists?: string; delete?: string; where?: string } = {};
  /** The read of one column before an overwrite, by column. */
  private readonly columnReads = new Map<ColumnMapping, string>();

  constructor(
    keyspace: string,
    readonly mapping: EntityMapping,
  ) {
    this.table = qualified(keyspace, mapping.table.name);
    this.all = mapping.columns;
  }

  /**
   * INSERT of every column; `withTtl` adds USING TTL ? (0 = never), `timestamp` USING TIMESTAMP ?.
   * Built once per shape: a unit of work asks for it once per row, and building it was ~4% of a
   * Cassandra insert job's profile (docs/performance.md).
   */
  insert(options: { withTtl: boolean; ifNotExists?: boolean; timestamp?: boolean }): string {
    const shape = (options.withTtl ? 1 : 0) | (options.ifNotExists ? 2 : 0) | (options.timestamp ? 4 : 0);
    return (this.inserts[shape] ??= this.insertText(options));
  }

  private insertText(options: { withTtl: boolean; ifNotExists?: boolean; timestamp?: boolean }): string {
    const names = this.all.map((c) => col(c)).join(', ');
    const marks = this.all.map(() => '?').join(', ');
    const using = [options.withTtl ? 'TTL ?' : '', options.timestamp ? 'TIMESTAMP ?' : ''].filter(Boolean);
    return (
      `INSERT INTO ${this.table} (${names}) VALUES (${marks})` +
      (options.ifNotExists ? ' IF NOT EXISTS' : '') +
      (using.length > 0 ? ` USING ${using.join(' AND ')}` : '')
    );
  }

  selectByKey(): string {
    return (this.fixed.byKey ??= `SELECT ${this.all.map(col).join(', ')} FROM ${this.table} WHERE ${this.keyCondition()}`);
  }

  existsByKey(): string {
    return (this.fixed.exists ??= `SELECT ${col(this.firstKey())} FROM ${this.table} WHERE ${this.keyCondition()} LIMIT 1`);
  }

  /** The one column read before an overwrite (see created-at.ts). */
  selectColumn(column: ColumnMapping): string {
    let text = this.columnReads.get(column);
    if (text === undefined) {
      text = `SELECT ${col(column)} FROM ${this.table} WHERE ${this.keyCondition()}`;
      this.columnReads.set(column, text);
    }
    return text;
  }

  deleteByKey(): string {
    return (this.fixed.delete ??= `DELETE FROM ${this.table} WHERE ${this.keyCondition()}`);
  }

  /** Non-key, non-counter columns, whose cells carry a TTL(). */
  ttlColumns(): readonly ColumnMapping[] {
    return this.mapping.regular.filter((c) => c.fieldType !== 'counter');
  }

  /** Each TTL-carrying column with its TTL() and, for setTtl, its WRITETIME(). */
  selectTtl(withWritetime: boolean): string {
    const parts = this.ttlColumns().flatMap((c, i) => [
      col(c),
      `TTL(${col(c)}) AS "ttl_${i}"`,
      ...(withWritetime ? [`WRITETIME(${col(c)}) AS "wt_${i}"`] : []),
    ]);
    const keys = this.all.filter((c) => c.kind !== 'regular').map(col);
    const others = this.all.filter((c) => c.kind === 'regular' && !this.ttlColumns().includes(c)).map(col);
    return `SELECT ${[...keys, ...parts, ...others].join(', ')} FROM ${this.table} WHERE ${this.keyCondition()}`;
  }

  /**
   * repository.expiresAt(): the coordinator's clock (currentTimestamp(), Cassandra 4.0+) with each
   * TTL-carrying cell and its TTL(), in one read: expiry = that clock + the longest cell TTL.
   */
  selectExpiryInstant(): string {
    const parts = this.ttlColumns().flatMap((c, i) => [col(c), `TTL(${col(c)}) AS "ttl_${i}"`]);
    return `SELECT currentTimestamp() AS "lifespan_now", ${parts.join(', ')} FROM ${this.table} WHERE ${this.keyCondition()}`;
  }

  /** SELECT (or COUNT) with equality filters; ALLOW FILTERING unless the filter is a key prefix Cassandra serves directly. */
  selectWhere(columns: readonly ColumnMapping[], options: { count: boolean; limit?: number }): string {
    const what = options.count ? 'COUNT(*)' : this.all.map(col).join(', ');
    const where = columns.length > 0 ? ` WHERE ${columns.map((c) => `${col(c)} = ?`).join(' AND ')}` : '';
    const limit = options.limit !== undefined ? ` LIMIT ${options.limit}` : '';
    const filtering = columns.length > 0 && !this.servedByKey(columns) ? ' ALLOW FILTERING' : '';
    return `SELECT ${what} FROM ${this.table}${where}${limit}${filtering}`;
  }

  private servedByKey(columns: readonly ColumnMapping[]): boolean {
    const given = new Set(columns.map((c) => c.member));
    if (!this.mapping.partition.every((c) => given.has(c.member))) return false;
    let prefix = true;
    let used = this.mapping.partition.length;
    for (const c of this.mapping.clustering) {
      if (given.has(c.member)) {
        if (!prefix) return false;
        used++;
      } else prefix = false;
    }
    return used === columns.length;
  }

  private keyCondition(): string {
    return (this.fixed.where ??= [...this.mapping.partition, ...this.mapping.clustering]
      .map((c) => `${col(c)} = ?`)
      .join(' AND '));
  }

  private firstKey(): ColumnMapping {
    return this.mapping.partition[0] as ColumnMapping;
  }
}

function col(c: ColumnMapping): string {
  return quoteId(c.column, 'column');
}
