import type { ColumnSpec, TableSpec } from './compile';
import { familyOf, quote, type RelationalDialect } from './dialect';

/**
 * DDL text per dialect, written by lifespan (not by knex's schema builder) so that explain()
 * can show the exact commands without a driver. Every statement is safe to repeat.
 */
export function columnDefinition(dialect: RelationalDialect, column: ColumnSpec): string {
  return `${quote(dialect, column.name)} ${column.type.sql}${column.nullable ? ' NULL' : ' NOT NULL'}`;
}

export function createTableSql(dialect: RelationalDialect, table: TableSpec): string {
  const q = (name: string) => quote(dialect, name);
  const lines = table.columns.map((c) => `  ${columnDefinition(dialect, c)}`);
  lines.push(`  PRIMARY KEY (${table.primaryKey.map(q).join(', ')})`);
  return `CREATE TABLE IF NOT EXISTS ${q(table.table)} (\n${lines.join(',\n')}\n)`;
}

/** MariaDB, PostgreSQL and SQLite know IF NOT EXISTS for indexes; MySQL does not (apply tolerates "exists"). */
export function createIndexSql(dialect: RelationalDialect, table: string, index: string, column: string): string {
  const ifNotExists = dialect === 'mysql' ? '' : 'IF NOT EXISTS ';
  return `CREATE INDEX ${ifNotExists}${quote(dialect, index)} ON ${quote(dialect, table)} (${quote(dialect, column)})`;
}

/** PostgreSQL and MariaDB know ADD COLUMN IF NOT EXISTS; SQLite and MySQL do not (apply tolerates "exists"). */
export function addColumnSql(dialect: RelationalDialect, table: string, column: ColumnSpec): string {
  const ifNotExists = dialect === 'postgres' || dialect === 'mariadb' ? 'IF NOT EXISTS ' : '';
  return `ALTER TABLE ${quote(dialect, table)} ADD COLUMN ${ifNotExists}${columnDefinition(dialect, column)}`;
}

export function dropIndexSql(dialect: RelationalDialect, table: string, index: string): string {
  if (familyOf(dialect) === 'mysql') {
    const ifExists = dialect === 'mariadb' ? 'IF EXISTS ' : '';
    return `DROP INDEX ${ifExists}${quote(dialect, index)} ON ${quote(dialect, table)}`;
  }
  return `DROP INDEX IF EXISTS ${quote(dialect, index)}`;
}

export function dropColumnSql(dialect: RelationalDialect, table: string, column: string): string {
  return `ALTER TABLE ${quote(dialect, table)} DROP COLUMN ${quote(dialect, column)}`;
}

/** What creating the table from nothing runs: the table, then the expiry index when emulating. */
export function createTableCommands(dialect: RelationalDialect, table: TableSpec): string[] {
  const commands = [createTableSql(dialect, table)];
  if (table.expiry) commands.push(createIndexSql(dialect, table.table, table.expiry.index, table.expiry.column));
  return commands;
}
