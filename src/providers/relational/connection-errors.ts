import { ErrorCodes } from '../../error-codes';
import type { ConnectionErrorPatterns } from '../connection-patterns';

/**
 * The connection failures of knex and its drivers: pg (SQLSTATE 28P01/28000 refused login,
 * 3D000 no such database), mysql2 (1045/1044, 1049), better-sqlite3 (a missing folder).
 */
export const connectionErrors: ConnectionErrorPatterns = {
  authFailed: {
    codes: ['28P01', '28000', 'ER_ACCESS_DENIED_ERROR', 'ER_DBACCESS_DENIED_ERROR'],
    errnos: [1045],
  },
  databaseMissing: { codes: ['3D000', 'ER_BAD_DB_ERROR'], errnos: [1049] },
  unreachable: { names: ['KnexTimeoutError'] },
  own: [
    {
      code: ErrorCodes.STORE_SQLITE_FOLDER_MISSING,
      messages: [/directory does not exist/i],
      codes: ['SQLITE_CANTOPEN'],
      message: (target, detail) => `cannot open the SQLite file of ${target}: ${detail}`,
      hint: 'create the folder first: SQLite creates the database file, but never its folder',
    },
  ],
};
