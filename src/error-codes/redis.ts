import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes only the Redis provider raises. Each row's TSDoc is its meaning in docs/errors.md. */
export const REDIS_CODES = {
  /** A Redis server older than 7.0 (no EXPIRE … GT). */
  REDIS_SERVER_TOO_OLD: { family: 'StoreError', exit: 'store' },
  /** A key under an entity's prefix whose value is not a record lifespan wrote (not JSON, not an object, no key). */
  REDIS_VALUE_UNREADABLE: { family: 'StoreError', exit: 'store' },
  /** A unit of work (or one script) whose keys span Redis Cluster hash slots; refused before anything is sent. */
  REDIS_CROSS_SLOT: { family: 'LifespanError', exit: 'usage' },
  /** A write the primary applied but fewer replicas than waitForReplicas acknowledged in time. */
  REDIS_NOT_REPLICATED: { family: 'StoreError', exit: 'store' },
} as const satisfies Record<string, ErrorCodeSpec>;
