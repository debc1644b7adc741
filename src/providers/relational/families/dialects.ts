import type { FieldType } from '../../../model/types';
import { familyOf, SQL_FAMILIES, sqlFamily, type ColumnType, type ExpirySql } from './by-dialect';

/**
 * The SQL dialects lifespan speaks. MariaDB and MySQL share the `mysql2` driver and almost all
 * SQL; they differ in the binary collation used for exact text equality and in DDL guards.
 * What differs per family lives in families/; these helpers ask the dialect's family object.
 */
export type RelationalDialect = 'sqlite' | 'postgres' | 'mariadb' | 'mysql';
export const RELATIONAL_DIALECTS: readonly RelationalDialect[] = ['sqlite', 'postgres', 'mariadb', 'mysql'];

export { familyOf, SQL_FAMILIES, sqlFamily };
export type { ColumnType, DialectFamily, ExpirySql, SqlFamily } from './by-dialect';

export const EXPIRY_COLUMN = 'expires_at';

export function expiryIndexName(table: string): string {
  return `ix_${table}_expires_at`;
}

/** Identifiers are validated against the portable pattern first, so quoting never needs escaping. */
export function quote(dialect: RelationalDialect, name: string): string {
  return sqlFamily(dialect).quote(name);
}

/** The instant type: SQLite integer epoch milliseconds; PostgreSQL timestamptz; MariaDB/MySQL DATETIME(3) in UTC. */
export function instantType(dialect: RelationalDialect): ColumnType {
  return sqlFamily(dialect).instantType;
}

export function columnType(dialect: RelationalDialect, type: FieldType, isKey: boolean): ColumnType {
  const family = sqlFamily(dialect);
  return type === 'date' ? family.instantType : family.columnType(dialect, type, isKey);
}

/** Live column types compared with the model's, in the family's normal form. */
export function normaliseLiveType(dialect: RelationalDialect, type: string): string {
  return sqlFamily(dialect).normaliseLiveType(type.trim().toLowerCase());
}

export function expirySql(dialect: RelationalDialect): ExpirySql {
  return sqlFamily(dialect).expiry;
}

/** How the dialect's database clock is named in explanations. */
export function clockName(dialect: RelationalDialect): string {
  return sqlFamily(dialect).clockName;
}

export function dialectLabel(dialect: RelationalDialect): string {
  return { sqlite: 'SQLite', postgres: 'PostgreSQL', mariadb: 'MariaDB', mysql: 'MySQL' }[dialect];
}
