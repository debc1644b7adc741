import type { KeyViolations } from '../family';
import { ALREADY_EXISTS, messageOf, sameColumns } from '../driver-error-text';

/** better-sqlite3's codes; a UNIQUE failure names its columns as `table.column, ...`. */
export const SQLITE_KEY_VIOLATIONS: KeyViolations = {
  isUnique: (e) => e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === 'SQLITE_CONSTRAINT_UNIQUE',
  isAlreadyThere: (e) => ALREADY_EXISTS.test(messageOf(e)),
  hitsPrimaryKey(e, table, keyColumns) {
    if (e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
    if (e.code !== 'SQLITE_CONSTRAINT_UNIQUE') return false;
    const named = /UNIQUE constraint failed: (.+)$/.exec(messageOf(e))?.[1];
    return sameColumns(
      named?.split(', '),
      keyColumns.map((c) => `${table}.${c}`),
    );
  },
};
