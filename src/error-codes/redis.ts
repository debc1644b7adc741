import type { ErrorCodeSpec } from '../error-codes';

/** Codes only the Redis provider raises. Each row's TSDoc is its meaning in docs/errors.md. */
export const REDIS_CODES = {
  /** A Redis server older than 7.0 (no EXPIRE … GT). */
  REDIS_SERVER_TOO_OLD: { family: 'StoreError', exit: 'store' },
  /** A key under an entity's prefix whose value is not a record lifespan wrote (not JSON, not an object, no key). */
  REDIS_VALUE_UNREADABLE: { family: 'StoreError', exit: 'store' },
} as const satisfies Record<string, ErrorCodeSpec>;
