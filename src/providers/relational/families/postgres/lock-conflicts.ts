import type { DriverError } from '../family';

/** SQLSTATE 40P01 (deadlock detected), 55P03 (lock not available: lock_timeout), 40001 (serialization failure). */
export function isPostgresLockConflict(e: DriverError): boolean {
  return e.code === '40P01' || e.code === '55P03' || e.code === '40001';
}
