import { ErrorCodes } from '../../../error-codes';
import { LifespanError, StoreError } from '../../../errors';
import { RELATIONAL_STORE } from '../options';

/** Fields the three drivers put on their errors. */
interface DriverError {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
}

export function isDuplicateKey(error: unknown): boolean {
  const e = (error ?? {}) as DriverError;
  return (
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === '23505' ||
    e.errno === 1062 ||
    e.code === 'ER_DUP_ENTRY'
  );
}

/** "already exists" answers to DDL that SQLite / MySQL cannot guard with IF NOT EXISTS. */
export function isAlreadyThere(error: unknown): boolean {
  const e = (error ?? {}) as DriverError;
  const message = typeof e.message === 'string' ? e.message : '';
  return (
    /duplicate column name|already exists/i.test(message) ||
    e.errno === 1050 ||
    e.errno === 1060 ||
    e.errno === 1061 ||
    e.code === '42P07' ||
    e.code === '42701'
  );
}

/**
 * What the driver (or an insert's row count) says: the key is taken. The repository and the unit
 * of work, which know the record, turn it into the shared wording (EntityTable.placeDuplicate).
 */
export function keyTaken(entity: string, cause?: unknown): StoreError {
  return new StoreError(ErrorCodes.DUPLICATE_KEY, 'a live row with this key already exists', {
    entity,
    store: RELATIONAL_STORE,
    hint: 'use upsert() to overwrite it, or delete it first',
    cause,
  });
}

/** A driver failure as a StoreError, with the original kept as `cause`. */
export function wrapDriverError(error: unknown, entity: string | undefined, doing: string): LifespanError {
  if (error instanceof LifespanError) return error;
  if (entity !== undefined && isDuplicateKey(error)) return keyTaken(entity, error);
  const message = (error as DriverError | undefined)?.message;
  return new StoreError(
    'STORE_QUERY_FAILED',
    `${doing} failed: ${typeof message === 'string' ? message : String(error)}`,
    {
      entity,
      store: RELATIONAL_STORE,
      hint: 'see the cause for the driver error',
      cause: error,
    },
  );
}
