import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes only the Cassandra provider raises. Each row's TSDoc is its meaning in docs/errors.md. */
export const CASSANDRA_CODES = {
  /** A json column holds text that is not JSON. */
  CASSANDRA_BAD_JSON: { family: 'LifespanError', exit: 'model' },
  /** A keyspace, table or column name Cassandra does not accept. */
  CASSANDRA_BAD_NAME: { family: 'LifespanError', exit: 'model' },
  /** Counter columns sharing a table with other non-key columns. */
  CASSANDRA_COUNTER_MIXED: { family: 'ModelError', exit: 'model' },
  /** A TTL on an entity with counter columns (Cassandra refuses it). */
  CASSANDRA_COUNTER_TTL: { family: 'ModelError', exit: 'model' },
  /** A write of a counter column (counters change by increments only). */
  CASSANDRA_COUNTER_WRITE: { family: 'LifespanError', exit: 'model' },
  /** A filter CQL cannot express (e.g. equality with null). */
  CASSANDRA_FILTER_UNSUPPORTED: { family: 'LifespanError', exit: 'model' },
  /** The nodes did not agree on a schema change in time. */
  CASSANDRA_NO_SCHEMA_AGREEMENT: { family: 'StoreError', exit: 'store' },
  /** Two entities mapped to one Cassandra table. */
  CASSANDRA_SHARED_TABLE: { family: 'ModelError', exit: 'model' },
  /** A TTL whose expiry would be past the node's expiration ceiling (2038-01-19, or 2106 when configured). */
  CASSANDRA_TTL_PAST_CEILING: { family: 'TtlError', exit: 'model' },
  /** A TTL over Cassandra's maximum of 20 years. */
  CASSANDRA_TTL_TOO_LARGE: { family: 'TtlError', exit: 'model' },
  /** ttl() of a row whose every non-key column is null (Cassandra keeps no TTL to read). */
  CASSANDRA_TTL_UNREADABLE: { family: 'LifespanError', exit: 'model' },
} as const satisfies Record<string, ErrorCodeSpec>;
