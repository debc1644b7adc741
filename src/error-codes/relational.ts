import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes only the relational provider raises. Each row's TSDoc is its meaning in docs/errors.md. */
export const RELATIONAL_CODES = {
  /** The clock option returned something that is not a valid Date. */
  RELATIONAL_BAD_CLOCK: { family: 'LifespanError', exit: 'model' },
  /** A table or column name that cannot be used in SQL. */
  RELATIONAL_BAD_IDENTIFIER: { family: 'ModelError', exit: 'model' },
  /** Two entities mapped to one table. */
  RELATIONAL_DUPLICATE_TABLE: { family: 'ModelError', exit: 'model' },
  /** A member stored in the column TTL emulation needs. */
  RELATIONAL_EXPIRY_COLUMN_TAKEN: { family: 'ModelError', exit: 'model' },
  /** A statement lifespan built breaks a rule of its own driver layer (a defect in lifespan: please report it). */
  RELATIONAL_INTERNAL: { family: 'LifespanError', exit: 'internal' },
  /** More string key members than a MariaDB/MySQL index key holds. */
  RELATIONAL_KEY_TOO_WIDE: { family: 'ModelError', exit: 'model' },
  /** A table name lifespan reserves for its TTL record. */
  RELATIONAL_RESERVED_TABLE: { family: 'ModelError', exit: 'model' },
  /** The schema lock could not be taken in time. */
  RELATIONAL_SCHEMA_LOCK: { family: 'StoreError', exit: 'store' },
  /** SQLite's one connection stayed inside a transaction lifespan did not open (a knex transaction past the acquire timeout, or a BEGIN run by hand). */
  RELATIONAL_SQLITE_TRANSACTION_OPEN: { family: 'StoreError', exit: 'store' },
  /** A SQLite older than 3.42. */
  RELATIONAL_SQLITE_TOO_OLD: { family: 'StoreError', exit: 'store' },
  /** A write or setTtl whose expiry is not after now (the row would expire on arrival). */
  RELATIONAL_TTL_ALREADY_EXPIRED: { family: 'LifespanError', exit: 'model' },
  /** A TTL on an entity while the relational store is configured with ttl: 'reject'. */
  RELATIONAL_TTL_REJECTED: { family: 'ModelError', exit: 'model' },
  /** A knex client lifespan does not support. */
  RELATIONAL_UNSUPPORTED_DRIVER: { family: 'StoreError', exit: 'store' },
} as const satisfies Record<string, ErrorCodeSpec>;
