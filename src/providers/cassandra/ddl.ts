import { qualified, quoteId } from './cql';
import { clusteringColumns, partitionColumns, regularColumns, type ColumnSpec, type TableSpec } from './schema';

/** CQL text for the schema statements plan() shows and apply() runs. `keyspace` null: unqualified (explain). */

export function createTable(keyspace: string | null, table: TableSpec): string {
  const columns = [...partitionColumns(table), ...clusteringColumns(table), ...regularColumns(table)];
  const defs = columns.map((c) => `${quoteId(c.name, 'column')} ${c.type}`);
  const clustering = clusteringColumns(table);
  const options: string[] = [];
  if (clustering.length > 0) {
    const order = clustering.map((c) => `${quoteId(c.name, 'column')} ${(c.order ?? 'asc').toUpperCase()}`);
    options.push(`CLUSTERING ORDER BY (${order.join(', ')})`);
  }
  if (table.defaultTtl > 0) options.push(`default_time_to_live = ${table.defaultTtl}`);
  const withClause = options.length > 0 ? ` WITH ${options.join(' AND ')}` : '';
  return `CREATE TABLE IF NOT EXISTS ${qualified(keyspace, table.name)} (${defs.join(', ')}, ${primaryKey(table)})${withClause}`;
}

/** `PRIMARY KEY (("userId"), "id")`: the partition key in its own parentheses, then the clustering columns. */
export function primaryKey(table: TableSpec): string {
  const partition = partitionColumns(table).map((c) => quoteId(c.name, 'column'));
  const clustering = clusteringColumns(table).map((c) => quoteId(c.name, 'column'));
  return `PRIMARY KEY (${[`(${partition.join(', ')})`, ...clustering].join(', ')})`;
}

export function setDefaultTtl(keyspace: string | null, table: string, seconds: number): string {
  return `ALTER TABLE ${qualified(keyspace, table)} WITH default_time_to_live = ${seconds}`;
}

export function addColumn(keyspace: string | null, table: string, column: ColumnSpec): string {
  return `ALTER TABLE ${qualified(keyspace, table)} ADD ${quoteId(column.name, 'column')} ${column.type}`;
}

export function dropTable(keyspace: string | null, table: string): string {
  return `DROP TABLE IF EXISTS ${qualified(keyspace, table)}`;
}
