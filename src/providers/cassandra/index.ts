/**
 * `lifespan-orm/cassandra`: the Cassandra store. cassandra-driver is an optional peer dependency.
 * @module lifespan-orm/cassandra
 */
export { CassandraStore, type CassandraStoreOptions } from './store';
export { cassandraExplainer, type CassandraExplainOptions } from './explainer';
export { CASSANDRA_MAX_TTL_SECONDS, CEILING_2038, CEILING_2106, DEFAULT_GC_GRACE_SECONDS } from './semantics';
export type { CassandraPlanStep, CassandraStepPayload } from './plan';
