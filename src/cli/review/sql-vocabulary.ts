/**
 * The relational settings a snapshot and the offline commands name: the SQL dialect and the TTL
 * mode of the configured relational store. The CLI holds its own copy of the words (it imports
 * no provider internals: test/architecture.test.ts); test/cli/sql-vocabulary-types.ts pins both
 * lists to the relational store's own types, so a new dialect or mode does not compile until it
 * is added here.
 */
export const SQL_DIALECTS = ['sqlite', 'postgres', 'mariadb', 'mysql'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

export const RELATIONAL_TTL_WORDS = ['ignore', 'emulate', 'reject'] as const;
export type RelationalTtlWord = (typeof RELATIONAL_TTL_WORDS)[number];

const LABELS: Record<SqlDialect, string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  mariadb: 'MariaDB',
  mysql: 'MySQL',
};

export function dialectLabel(dialect: SqlDialect): string {
  return LABELS[dialect];
}
