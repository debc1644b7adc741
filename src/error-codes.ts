/**
 * Error codes that mean the same thing in every provider, so a program can handle them once.
 * Store-specific conditions keep their own prefixed codes (e.g. CASSANDRA_TTL_PAST_CEILING).
 */
export const ErrorCodes = {
  /** A class passed to repository()/unitOfWork() is not in the model. */
  UNKNOWN_ENTITY: 'UNKNOWN_ENTITY',
  /** A filter or option names a member the entity does not have. */
  UNKNOWN_MEMBER: 'UNKNOWN_MEMBER',
  /** An argument of the wrong kind (a limit that is not a positive integer, keys that are not an array, …). */
  BAD_ARGUMENT: 'BAD_ARGUMENT',
  /** A member value that does not fit its declared type, or a missing non-nullable value. */
  VALUE_INVALID: 'VALUE_INVALID',
  /** A key argument without every key member. */
  KEY_INCOMPLETE: 'KEY_INCOMPLETE',
  /** insert() of a key that already holds a live record. */
  DUPLICATE_KEY: 'STORE_DUPLICATE_KEY',
  /** A unit of work commits once; after commit() (successful or not) it takes nothing more. */
  UOW_ALREADY_COMMITTED: 'UOW_ALREADY_COMMITTED',
  /** apply() of a plan with a destructive step without allowDestructive. */
  PLAN_DESTRUCTIVE_NOT_ALLOWED: 'PLAN_DESTRUCTIVE_NOT_ALLOWED',
  /** apply()/ensureCollections() of a plan with a blocking conflict. */
  PLAN_CONFLICT: 'PLAN_CONFLICT',
  /** ensureCollections() met a step that would make stored records expire; it needs review. */
  ENSURE_NEEDS_REVIEW: 'ENSURE_NEEDS_REVIEW',
  /** apply() of a step that makes stored records expire at once, without allowRetroactive. */
  PLAN_RETROACTIVE_NOT_ALLOWED: 'PLAN_RETROACTIVE_NOT_ALLOWED',
  /** The store's server cannot be reached (connection refused, unknown host, timeout). */
  STORE_UNREACHABLE: 'STORE_UNREACHABLE',
  /** The server refused the credentials. */
  STORE_AUTH_FAILED: 'STORE_AUTH_FAILED',
  /** The database, keyspace or Cosmos database/container named in the connection does not exist. */
  STORE_DATABASE_MISSING: 'STORE_DATABASE_MISSING',
  /** The SQLite file's folder does not exist (SQLite creates the file, never its folder). */
  STORE_SQLITE_FOLDER_MISSING: 'STORE_SQLITE_FOLDER_MISSING',
  /** The store's driver package is not installed; the message names the package. */
  STORE_DRIVER_MISSING: 'STORE_DRIVER_MISSING',
  /** purgeExpired() gave up after retrying a deadlock or lock wait; what it purged stays purged, the next run resumes. */
  PURGE_INTERRUPTED: 'PURGE_INTERRUPTED',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
