/**
 * The SQL dialects lifespan speaks. MariaDB and MySQL share the `mysql2` driver and almost all
 * SQL; they differ in the binary collation used for exact text equality and in DDL guards.
 * What differs per family lives in this folder's two objects per family, each picked by dialect:
 * the SqlFamily (SQL text and values) by by-dialect.ts, the FamilyOperations (catalog, purge,
 * schema lock) by operations-by-dialect.ts.
 */
export type RelationalDialect = 'sqlite' | 'postgres' | 'mariadb' | 'mysql';
export const RELATIONAL_DIALECTS: readonly RelationalDialect[] = ['sqlite', 'postgres', 'mariadb', 'mysql'];

const LABELS: Readonly<Record<RelationalDialect, string>> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  mariadb: 'MariaDB',
  mysql: 'MySQL',
};

/** The dialect's name as explanations write it. */
export function dialectLabel(dialect: RelationalDialect): string {
  return LABELS[dialect];
}
