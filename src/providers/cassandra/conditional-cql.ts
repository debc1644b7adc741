import type { ColumnMapping, EntityMapping } from './compile';
import { qualified, quoteId } from './cql';

/**
 * The CQL of update(), delete({ ifVersion }) and patch() on a versioned table: lightweight
 * transactions (IF version = ?), each a Paxos round. A versioned write is a conditional batch of an
 * INSERT of every other column and an UPDATE of the version that holds the condition, both with
 * one TTL: the INSERT also stamps the row marker, so the row expires as a whole (an UPDATE alone
 * gives only the cells it sets their expiry: the row would tear).
 */
export class ConditionalStatements {
  private readonly table: string;
  private readonly version: ColumnMapping;
  private readonly others: readonly ColumnMapping[];

  constructor(
    keyspace: string,
    private readonly mapping: EntityMapping,
  ) {
    this.table = qualified(keyspace, mapping.table.name);
    const member = mapping.entity.version as string;
    this.version = mapping.columns.find((c) => c.member === member) as ColumnMapping;
    this.others = mapping.columns.filter((c) => c !== this.version);
  }

  /** The columns the batch's INSERT binds, in order (every column but the version). */
  get insertColumns(): readonly ColumnMapping[] {
    return this.others;
  }

  /** INSERT of every column but the version; then UPDATE … SET version = ? WHERE key IF version = ?. */
  versionedWrite(withTtl: boolean): { insert: string; update: string } {
    const using = withTtl ? ' USING TTL ?' : '';
    const names = this.others.map(col).join(', ');
    const marks = this.others.map(() => '?').join(', ');
    return {
      insert: `INSERT INTO ${this.table} (${names}) VALUES (${marks})${using}`,
      update: `UPDATE ${this.table}${using} SET ${col(this.version)} = ? WHERE ${this.keyCondition()} IF ${col(this.version)} = ?`,
    };
  }

  deleteIfVersion(): string {
    return `DELETE FROM ${this.table} WHERE ${this.keyCondition()} IF ${col(this.version)} = ?`;
  }

  private keyCondition(): string {
    return [...this.mapping.partition, ...this.mapping.clustering].map((c) => `${col(c)} = ?`).join(' AND ');
  }
}

/**
 * The patch of a table without a version: the same conditional batch (an INSERT of every column
 * but one, an UPDATE of that one, one TTL), its condition every regular column as read, so a
 * write that landed since the read fails the IF and the patch reads again (never a lost change).
 */
export class GuardedPatchStatements {
  readonly insertColumns: readonly ColumnMapping[];
  readonly setColumn: ColumnMapping;
  readonly conditionColumns: readonly ColumnMapping[];
  private readonly table: string;

  constructor(
    keyspace: string,
    private readonly mapping: EntityMapping,
  ) {
    this.table = qualified(keyspace, mapping.table.name);
    this.conditionColumns = mapping.columns.filter((c) => c.kind === 'regular');
    // A patch changes at least one member that is not the key, so there is a regular column.
    this.setColumn = this.conditionColumns[0] as ColumnMapping;
    this.insertColumns = mapping.columns.filter((c) => c !== this.setColumn);
  }

  write(withTtl: boolean): { insert: string; update: string } {
    const using = withTtl ? ' USING TTL ?' : '';
    const names = this.insertColumns.map(col).join(', ');
    const marks = this.insertColumns.map(() => '?').join(', ');
    const key = [...this.mapping.partition, ...this.mapping.clustering].map((c) => `${col(c)} = ?`).join(' AND ');
    const condition = this.conditionColumns.map((c) => `${col(c)} = ?`).join(' AND ');
    return {
      insert: `INSERT INTO ${this.table} (${names}) VALUES (${marks})${using}`,
      update: `UPDATE ${this.table}${using} SET ${col(this.setColumn)} = ? WHERE ${key} IF ${condition}`,
    };
  }
}

function col(c: ColumnMapping): string {
  return quoteId(c.column, 'column');
}
