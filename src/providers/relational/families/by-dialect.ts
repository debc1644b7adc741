import type { RelationalDialect } from './dialects';
import type { DialectFamily, SqlFamily } from './family';
import { MYSQL_FAMILY } from './mysql/family';
import { POSTGRES_FAMILY } from './postgres/family';
import { SQLITE_FAMILY } from './sqlite/family';

export const SQL_FAMILIES: Readonly<Record<DialectFamily, SqlFamily>> = {
  sqlite: SQLITE_FAMILY,
  postgres: POSTGRES_FAMILY,
  mysql: MYSQL_FAMILY,
};

const FAMILY_OF_DIALECT: Readonly<Record<RelationalDialect, DialectFamily>> = {
  sqlite: 'sqlite',
  postgres: 'postgres',
  mariadb: 'mysql',
  mysql: 'mysql',
};

export function familyOf(dialect: RelationalDialect): DialectFamily {
  return FAMILY_OF_DIALECT[dialect];
}

/** The object holding everything the dialect's family does differently in SQL text and values. */
export function sqlFamily(dialect: RelationalDialect): SqlFamily {
  return SQL_FAMILIES[FAMILY_OF_DIALECT[dialect]];
}
