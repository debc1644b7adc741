import type { KeyViolations } from '../family';
import { ALREADY_EXISTS, messageOf, sameColumns } from '../driver-error-text';

/** SQLSTATE 23505, with the constraint `<table>_pkey` or the detail's "Key (columns)=(values)". */
export const POSTGRES_KEY_VIOLATIONS: KeyViolations = {
  isUnique: (e) => e.code === '23505',
  // 42P07: duplicate table or index; 42701: duplicate column.
  isAlreadyThere: (e) => ALREADY_EXISTS.test(messageOf(e)) || e.code === '42P07' || e.code === '42701',
  hitsPrimaryKey(e, table, keyColumns) {
    if (e.code !== '23505') return false;
    if (e.constraint === `${table}_pkey`) return true;
    const named = /^Key \((.+?)\)=/.exec(typeof e.detail === 'string' ? e.detail : '')?.[1];
    return sameColumns(
      named?.split(', ').map((c) => c.replace(/^"(.*)"$/, '$1')),
      keyColumns,
    );
  },
};
