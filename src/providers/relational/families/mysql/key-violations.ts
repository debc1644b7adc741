import type { KeyViolations } from '../family';
import { ALREADY_EXISTS, messageOf } from '../driver-error-text';

/** ER_DUP_ENTRY (1062) names the key: `for key 'PRIMARY'` (MySQL 8 prefixes the table). */
export const MYSQL_KEY_VIOLATIONS: KeyViolations = {
  isUnique: (e) => e.errno === 1062 || e.code === 'ER_DUP_ENTRY',
  // 1050: table exists; 1060: duplicate column; 1061: duplicate key name.
  isAlreadyThere: (e) => ALREADY_EXISTS.test(messageOf(e)) || e.errno === 1050 || e.errno === 1060 || e.errno === 1061,
  hitsPrimaryKey: (e) => /for key '(?:[^']*\.)?PRIMARY'/.test(messageOf(e)),
};
