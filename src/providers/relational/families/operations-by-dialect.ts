import { familyOf } from './by-dialect';
import type { RelationalDialect } from './dialects';
import type { DialectFamily } from './family';
import { MYSQL_OPERATIONS } from './mysql/operations';
import type { FamilyOperations } from './operations';
import { POSTGRES_OPERATIONS } from './postgres/operations';
import { SQLITE_OPERATIONS } from './sqlite/operations';

const OPERATIONS: Readonly<Record<DialectFamily, FamilyOperations>> = {
  sqlite: SQLITE_OPERATIONS,
  postgres: POSTGRES_OPERATIONS,
  mysql: MYSQL_OPERATIONS,
};

/** The object holding what the dialect's family does differently against a live database. */
export function familyOperations(dialect: RelationalDialect): FamilyOperations {
  return OPERATIONS[familyOf(dialect)];
}
