import type { DriverError } from '../family';

/** better-sqlite3's SQLITE_BUSY (another connection holds the database) and SQLITE_LOCKED (a table of this one is). */
export function isSqliteLockConflict(e: DriverError): boolean {
  return e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_LOCKED';
}
