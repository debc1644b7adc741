import type { DriverError } from '../family';

/** ER_LOCK_DEADLOCK (1213) and ER_LOCK_WAIT_TIMEOUT (1205). */
export function isMysqlLockConflict(e: DriverError): boolean {
  return e.errno === 1213 || e.errno === 1205;
}
