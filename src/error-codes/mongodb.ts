import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes only the MongoDB provider raises. Each row's TSDoc is its meaning in docs/errors.md. */
export const MONGODB_CODES = {
  /** An expireAfterSeconds outside 0..2^31-1 (refused before sending). */
  MONGO_BAD_EXPIRE_AFTER_SECONDS: { family: 'LifespanError', exit: 'model' },
  /** collMod reported another expireAfterSeconds than the one sent. */
  MONGO_COLLMOD_MISMATCH: { family: 'StoreError', exit: 'store' },
  /** The TTL index a step changes no longer exists. */
  MONGO_INDEX_GONE: { family: 'StoreError', exit: 'store' },
  /** An index of the same name exists on another key. */
  MONGO_INDEX_NAME_CONFLICT: { family: 'StoreError', exit: 'store' },
  /** An index on the same key exists with other options. */
  MONGO_INDEX_OPTIONS_CONFLICT: { family: 'StoreError', exit: 'store' },
  /** A member stored as '_id', which holds the entity's key. */
  MONGO_RESERVED_FIELD: { family: 'ModelError', exit: 'model' },
  /** Two entities mapped to one collection. */
  MONGO_SHARED_COLLECTION: { family: 'ModelError', exit: 'model' },
  /**
   * Another process changed a TTL index between the live read and a collMod judged a lengthening,
   * so the collMod shortened it without allowRetroactive (the message says what to put back).
   */
  MONGO_TTL_CHANGED_MEANWHILE: { family: 'StoreError', exit: 'store' },
  /** expireAfterSeconds on a compound index (MongoDB ignores it there). */
  MONGO_TTL_COMPOUND_KEY: { family: 'LifespanError', exit: 'model' },
  /** A TTL that counts from a member that is not a Date. */
  MONGO_TTL_MEMBER_NOT_DATE: { family: 'ModelError', exit: 'model' },
  /** A TTL without a date member to count from (a TTL index needs one). */
  MONGO_TTL_NO_DATE_MEMBER: { family: 'ModelError', exit: 'model' },
  /** expireAfterSeconds on the _id index (MongoDB refuses it). */
  MONGO_TTL_ON_ID: { family: 'LifespanError', exit: 'model' },
  /** A TTL that counts from a key member stored in _id. */
  MONGO_TTL_ON_KEY: { family: 'ModelError', exit: 'model' },
  /** A TTL member of new Date(0), the unset placeholder the monitor would delete at once. */
  MONGO_TTL_VALUE_PLACEHOLDER: { family: 'LifespanError', exit: 'model' },
} as const satisfies Record<string, ErrorCodeSpec>;
