import type { ColumnSpec, TableSpec } from '../compile';
import { sqlFamily } from '../families/by-dialect';
import type { RelationalDialect } from '../families/dialects';

/**
 * DDL text per dialect, written by lifespan (not by knex's schema builder) so that explain()
 * can show the exact commands without a driver. Every statement is safe to repeat.
 */
export function columnDefinition(dialect: RelationalDialect, column: ColumnSpec): string {
  return `${sqlFamily(dialect).quote(column.name)} ${column.type.sql}${column.nullable ? ' NULL' : ' NOT NULL'}`;
}

export function createTableSql(dialect: RelationalDialect, table: TableSpec): string {
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  const lines = table.columns.map((c) => `  ${columnDefinition(dialect, c)}`);
  lines.push(`  PRIMARY KEY (${table.primaryKey.map(q).join(', ')})`);
  return `CREATE TABLE IF NOT EXISTS ${q(table.table)} (\n${lines.join(',\n')}\n)`;
}

/** Without the IF NOT EXISTS guard (MySQL), apply tolerates "exists". */
export function createIndexSql(dialect: RelationalDialect, table: string, index: string, column: string): string {
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  const ifNotExists = family.ddlGuards(dialect).createIndexIfNotExists ? 'IF NOT EXISTS ' : '';
  return `CREATE INDEX ${ifNotExists}${q(index)} ON ${q(table)} (${q(column)})`;
}

/** Without ADD COLUMN IF NOT EXISTS (SQLite, MySQL), apply tolerates "exists". */
export function addColumnSql(dialect: RelationalDialect, table: string, column: ColumnSpec): string {
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  const ifNotExists = family.ddlGuards(dialect).addColumnIfNotExists ? 'IF NOT EXISTS ' : '';
  return `ALTER TABLE ${q(table)} ADD COLUMN ${ifNotExists}${columnDefinition(dialect, column)}`;
}

export function dropIndexSql(dialect: RelationalDialect, table: string, index: string): string {
  const family = sqlFamily(dialect);
  return family.dropIndexSql(family.quote(table), family.quote(index), family.ddlGuards(dialect).dropIndexIfExists);
}

export function dropColumnSql(dialect: RelationalDialect, table: string, column: string): string {
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  return `ALTER TABLE ${q(table)} DROP COLUMN ${q(column)}`;
}

/** What creating the table from nothing runs: the table, then the expiry index when emulating. */
export function createTableCommands(dialect: RelationalDialect, table: TableSpec): string[] {
  const commands = [createTableSql(dialect, table)];
  if (table.expiry) commands.push(createIndexSql(dialect, table.table, table.expiry.index, table.expiry.column));
  return commands;
}
