import { ErrorCodes } from '../../../error-codes';
import { LifespanError, StoreError } from '../../../errors';
import { RELATIONAL_STORE } from '../options';

/** Fields the three drivers put on their errors. */
interface DriverError {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
  /** PostgreSQL: the constraint's name and "Key (columns)=(values) already exists." */
  readonly constraint?: unknown;
  readonly detail?: unknown;
}

/** Any unique violation: the primary key or another unique index (hitsPrimaryKey tells which). */
export function isUniqueViolation(error: unknown): boolean {
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
 * Whether a unique violation is the table's primary key, as the driver words it: PostgreSQL's
 * constraint `<table>_pkey` or the detail's columns, MySQL/MariaDB's key 'PRIMARY', SQLite's
 * PRIMARYKEY code or the columns it names. Anything else (or silence) is not the key.
 */
export function hitsPrimaryKey(error: unknown, table: string, keyColumns: readonly string[]): boolean {
  const e = (error ?? {}) as DriverError;
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    const named = /UNIQUE constraint failed: (.+)$/.exec(message)?.[1];
    return sameColumns(
      named?.split(', '),
      keyColumns.map((c) => `${table}.${c}`),
    );
  }
  if (e.code === '23505') {
    if (e.constraint === `${table}_pkey`) return true;
    const named = /^Key \((.+?)\)=/.exec(typeof e.detail === 'string' ? e.detail : '')?.[1];
    return sameColumns(
      named?.split(', ').map((c) => c.replace(/^"(.*)"$/, '$1')),
      keyColumns,
    );
  }
  return /for key '(?:[^']*\.)?PRIMARY'/.test(message);
}

function sameColumns(named: readonly string[] | undefined, keyColumns: readonly string[]): boolean {
  return named !== undefined && named.length === keyColumns.length && named.every((c) => keyColumns.includes(c));
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
