import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes every store raises alike (the ErrorCodes below name most of them). Each row's TSDoc is its meaning in docs/errors.md. */
export const SHARED_CODES = {
  /** A class passed to repository()/unitOfWork() is not in the model. */
  UNKNOWN_ENTITY: { family: 'LifespanError', exit: 'model' },
  /** A filter or option names a member the entity does not have. */
  UNKNOWN_MEMBER: { family: 'LifespanError', exit: 'model' },
  /** An argument of the wrong kind (a limit that is not a positive integer, keys that are not an array, …). */
  BAD_ARGUMENT: { family: 'LifespanError', exit: 'usage' },
  /** A member value that does not fit its declared type, or a missing non-nullable value. */
  VALUE_INVALID: { family: 'LifespanError', exit: 'model' },
  /** A key argument without every key member. */
  KEY_INCOMPLETE: { family: 'LifespanError', exit: 'model' },
  /** insert() of a key that holds a live record, or a write another unique constraint refuses (the message says which). */
  STORE_DUPLICATE_KEY: { family: 'StoreError', exit: 'store' },
  /** A unit of work commits once; after commit() (successful or not) it takes nothing more. */
  UOW_ALREADY_COMMITTED: { family: 'LifespanError', exit: 'model' },
  /** apply() of a plan with a destructive step without allowDestructive. */
  PLAN_DESTRUCTIVE_NOT_ALLOWED: { family: 'LifespanError', exit: 'usage' },
  /** apply()/ensureCollections() of a plan with a blocking conflict. */
  PLAN_CONFLICT: { family: 'LifespanError', exit: 'store' },
  /** ensureCollections() met a step that would make stored records expire; it needs review. */
  ENSURE_NEEDS_REVIEW: { family: 'LifespanError', exit: 'store' },
  /** apply() of a step that makes stored records expire at once, without allowRetroactive. */
  PLAN_RETROACTIVE_NOT_ALLOWED: { family: 'LifespanError', exit: 'usage' },
  /** The store's server cannot be reached (connection refused, unknown host, timeout). */
  STORE_UNREACHABLE: { family: 'StoreError', exit: 'store' },
  /** The server refused the credentials. */
  STORE_AUTH_FAILED: { family: 'StoreError', exit: 'store' },
  /** The database, keyspace or Cosmos database/container named in the connection does not exist. */
  STORE_DATABASE_MISSING: { family: 'StoreError', exit: 'store' },
  /** The SQLite file's folder does not exist (SQLite creates the file, never its folder). */
  STORE_SQLITE_FOLDER_MISSING: { family: 'StoreError', exit: 'store' },
  /** The store's driver package is not installed; the message names the package. */
  STORE_DRIVER_MISSING: { family: 'StoreError', exit: 'store' },
  /** apply() of a plan whose step this store did not make, or whose payload was edited after planning. */
  PLAN_BAD_STEP: { family: 'LifespanError', exit: 'model' },
  /** apply() of a plan made for another store. */
  PLAN_WRONG_STORE: { family: 'LifespanError', exit: 'model' },
  /** checkPlan() on a store whose session cannot judge a plan without applying it (a third-party store). */
  PLAN_CHECK_UNSUPPORTED: { family: 'LifespanError', exit: 'usage' },
  /** purgeExpired() on a store that expires data natively (nothing to purge). */
  PURGE_NOT_EMULATED: { family: 'LifespanError', exit: 'usage' },
  /** purgeExpired() gave up after retrying a deadlock or lock wait; what it purged stays purged, the next run resumes. */
  PURGE_INTERRUPTED: { family: 'StoreError', exit: 'store' },
  /** A relational session used after close(). */
  SESSION_CLOSED: { family: 'LifespanError', exit: 'model' },
  /** update() or delete({ ifVersion }) met a live record of another version, or none (version 0): nothing was written. */
  STORE_VERSION_CONFLICT: { family: 'StoreError', exit: 'store' },
  /** update() or delete({ ifVersion }) on an entity without a version member (Version() / .version()). */
  VERSION_NOT_DECLARED: { family: 'LifespanError', exit: 'model' },
  /** patch() changes that name a key member or the version member (the key identifies the record; the version counts its writes). */
  PATCH_MEMBER_REFUSED: { family: 'LifespanError', exit: 'model' },

  // One code per condition on every store; the error's `store` says which (CHANGELOG.md lists the codes they replace).
  /** A store's constructor option that is missing or of the wrong kind (no driver client, a bad prefix, an unknown ttl mode). */
  STORE_BAD_OPTION: { family: 'LifespanError', exit: 'model' },
  /**
   * A store URL (--url) that lifespan cannot use: it does not parse, names no database, has an
   * unknown or repeated option or a value the option does not take, or its settings (COSMOS_ENDPOINT) are wrong.
   */
  STORE_BAD_URL: { family: 'LifespanError', exit: 'usage' },
  /** The store's driver could not connect, for a reason other than the STORE_UNREACHABLE / STORE_AUTH_FAILED ones. */
  STORE_CONNECT_FAILED: { family: 'StoreError', exit: 'store' },
  /** The driver or server refused a read, write, schema command or inspection; the driver error is the cause. */
  STORE_OPERATION_FAILED: { family: 'StoreError', exit: 'store' },

  // findPage() / iterate() / deleteMany() (issue 26)
  /** findPage() got a cursor it did not make for this call: garbage, changed after it was returned, or made for another store, entity or filter. */
  CURSOR_INVALID: { family: 'LifespanError', exit: 'usage' },

  // Issue 25: the expiry forecast and the un-expiry consent.
  /** expiryForecast() on a store whose session has no forecast (a third-party store). */
  FORECAST_UNSUPPORTED: { family: 'LifespanError', exit: 'usage' },
  /** apply()/ensureCollections() of a step that makes due-but-stored records readable again, without allowUnexpiry. */
  PLAN_UNEXPIRY_NOT_ALLOWED: { family: 'LifespanError', exit: 'usage' },
  // Conditional writes (issue 26 part 2), the same on every store.
  /** patch() met another write of the record during each of its attempts: nothing was written; retry. */
  STORE_WRITE_CONTENDED: { family: 'StoreError', exit: 'store' },
} as const satisfies Record<string, ErrorCodeSpec>;
