import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes only the Cosmos DB provider raises. Each row's TSDoc is its meaning in docs/errors.md. */
export const COSMOS_CODES = {
  /** An item id Cosmos DB does not allow. */
  COSMOS_BAD_ID: { family: 'LifespanError', exit: 'model' },
  /** A transactional batch of a unit of work failed; the service rolled that batch back. */
  COSMOS_BATCH_FAILED: { family: 'StoreError', exit: 'store' },
  /** An entity with more than one partition key member (Cosmos maps one path). */
  COSMOS_COMPOSITE_PARTITION_KEY: { family: 'ModelError', exit: 'model' },
  /** The container does not exist. */
  COSMOS_CONTAINER_MISSING: { family: 'StoreError', exit: 'store' },
  /** Entities sharing a container need different partition key paths. */
  COSMOS_CONTAINER_PARTITION_KEY_DISAGREES: { family: 'ModelError', exit: 'model' },
  /** Entities sharing a container need different DefaultTimeToLive values. */
  COSMOS_CONTAINER_TTL_DISAGREES: { family: 'ModelError', exit: 'model' },
  /** The database or container of a request does not exist. */
  COSMOS_NOT_FOUND: { family: 'StoreError', exit: 'store' },
  /** The container changed after the plan was made. */
  COSMOS_PLAN_STALE: { family: 'StoreError', exit: 'store' },
  /** A stored name that Cosmos DB owns or interprets. */
  COSMOS_RESERVED_NAME: { family: 'ModelError', exit: 'model' },
  /** A TTL Cosmos DB does not accept (whole seconds 1..2^31-1, or -1). */
  COSMOS_TTL_OUT_OF_RANGE: { family: 'TtlError', exit: 'model' },
  /** An item kept changing during every attempt of a conditional write. */
  COSMOS_WRITE_CONTENDED: { family: 'StoreError', exit: 'store' },
} as const satisfies Record<string, ErrorCodeSpec>;
