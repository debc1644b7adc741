import { ErrorCodes } from '../../../error-codes';
import { LifespanError, StoreError } from '../../../errors';
import { EVERY_SQL_FAMILY } from '../families/by-dialect';
import type { DriverError } from '../families/family';
import { RELATIONAL_STORE } from '../options';

/*
 * A driver error is one family's (the codes never overlap), so these ask each family's parser
 * (families/<family>/key-violations.ts) without knowing which family raised it.
 */

/** Any unique violation: the primary key or another unique index (hitsPrimaryKey tells which). */
export function isUniqueViolation(error: unknown): boolean {
  const e = (error ?? {}) as DriverError;
  return EVERY_SQL_FAMILY.some((f) => f.keyViolations.isUnique(e));
}

/** "already exists" answers to DDL that SQLite / MySQL cannot guard with IF NOT EXISTS. */
export function isAlreadyThere(error: unknown): boolean {
  const e = (error ?? {}) as DriverError;
  return EVERY_SQL_FAMILY.some((f) => f.keyViolations.isAlreadyThere(e));
}

/** Whether a unique violation is the table's primary key, as the driver words it. Anything else (or silence) is not the key. */
export function hitsPrimaryKey(error: unknown, table: string, keyColumns: readonly string[]): boolean {
  const e = (error ?? {}) as DriverError;
  return EVERY_SQL_FAMILY.some((f) => f.keyViolations.hitsPrimaryKey(e, table, keyColumns));
}

/**
 * A unique violation met by a statement of an entity, before the repository or unit of work (which
 * know the table and the operation) words it through runtime/key-errors.ts: EntityTable.duplicateOf.
 * It carries no wording of its own; `keyHit` is set where the row count already said the key.
 */
export class UniqueViolation extends StoreError {
  constructor(
    entity: string,
    cause: unknown,
    readonly keyHit?: true,
  ) {
    super(ErrorCodes.STORE_DUPLICATE_KEY, 'unique violation (worded by EntityTable.duplicateOf)', {
      entity,
      store: RELATIONAL_STORE,
      cause,
    });
  }
}

/** A driver failure as a StoreError, with the original kept as `cause`. */
export function wrapDriverError(error: unknown, entity: string | undefined, doing: string): LifespanError {
  if (error instanceof LifespanError) return error;
  if (entity !== undefined && isUniqueViolation(error)) return new UniqueViolation(entity, error);
  const message = (error as DriverError | undefined)?.message;
  return new StoreError(
    'STORE_OPERATION_FAILED',
    `${doing} failed: ${typeof message === 'string' ? message : String(error)}`,
    {
      entity,
      store: RELATIONAL_STORE,
      hint: 'see the cause for the driver error',
      cause: error,
    },
  );
}
