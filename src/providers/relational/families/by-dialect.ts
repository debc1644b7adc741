import type { RelationalDialect } from './dialects';
import type { DialectFamily, SqlFamily } from './family';
import { MYSQL_FAMILY } from './mysql/family';
import { POSTGRES_FAMILY } from './postgres/family';
import { SQLITE_FAMILY } from './sqlite/family';

const SQL_FAMILIES: Readonly<Record<DialectFamily, SqlFamily>> = {
  sqlite: SQLITE_FAMILY,
  postgres: POSTGRES_FAMILY,
  mysql: MYSQL_FAMILY,
};

/** Every family, for answers that need no family picked (a driver error is always one family's). */
export const EVERY_SQL_FAMILY: readonly SqlFamily[] = Object.values(SQL_FAMILIES);

const FAMILY_OF_DIALECT: Readonly<Record<RelationalDialect, DialectFamily>> = {
  sqlite: 'sqlite',
  postgres: 'postgres',
  mariadb: 'mysql',
  mysql: 'mysql',
};

/** The dialect's family name, for the pickers of this folder (elsewhere: ask the family object). */
export function familyOf(dialect: RelationalDialect): DialectFamily {
  return FAMILY_OF_DIALECT[dialect];
}

/** The object holding everything the dialect's family does differently in SQL text and values. */
export function sqlFamily(dialect: RelationalDialect): SqlFamily {
  return SQL_FAMILIES[FAMILY_OF_DIALECT[dialect]];
}
