/**
 * The native schema as plain data: what compile() wants and what inspect() finds, in one shape so
 * plan() can diff them without a server.
 */

export type ColumnKind = 'partition_key' | 'clustering' | 'regular' | 'static';

export interface ColumnSpec {
  readonly name: string;
  /** CQL type as system_schema.columns spells it ('text', 'bigint', 'timestamp', ...). */
  readonly type: string;
  readonly kind: ColumnKind;
  /** Position within the partition key or the clustering columns; -1 for regular columns. */
  readonly position: number;
  /** Clustering order; null for other kinds. */
  readonly order: 'asc' | 'desc' | null;
}

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  /** default_time_to_live in seconds; 0 means none (Cassandra's own encoding). */
  readonly defaultTtl: number;
  /** gc_grace_seconds as found live; compile leaves it to the table default. */
  readonly gcGraceSeconds: number | null;
}

export interface KeyspaceSchema {
  readonly keyspace: string;
  readonly tables: readonly TableSpec[];
}

export function partitionColumns(table: TableSpec): ColumnSpec[] {
  return byPosition(table.columns.filter((c) => c.kind === 'partition_key'));
}

export function clusteringColumns(table: TableSpec): ColumnSpec[] {
  return byPosition(table.columns.filter((c) => c.kind === 'clustering'));
}

export function regularColumns(table: TableSpec): ColumnSpec[] {
  return table.columns.filter((c) => c.kind === 'regular' || c.kind === 'static');
}

function byPosition(columns: ColumnSpec[]): ColumnSpec[] {
  return [...columns].sort((a, b) => a.position - b.position);
}
