/**
 * Redis Cluster facts lifespan states in explain() and docs/stores/redis.md#cluster (sources:
 * the Redis Cluster specification; redis/redis#8474 for absolute TTL replication; redis/redis#1768
 * for replica reads of expired keys; antirez/redis#5310 for node-local keyspace notifications).
 */
export const CLUSTER_SAY = {
  walk: 'find(), count(), expiryForecast() and plan --counts read the per-slot collection indexes, a page of at most 1,000 members per script and primary; findPage(), iterate() and deleteMany() walk them with ZSCAN slot by slot, one script per run of slots of one primary; the one-time index build SCANs each primary in turn (SCAN walks one node only)',
  instants:
    'TTLs replicate as absolute Unix times in ms: after a failover the key keeps its expiry instant, judged by ' +
    "the new primary's clock (keep node clocks in sync)",
  replicas:
    "replicas never expire keys themselves: DBSIZE / INFO keyspace on a replica count keys already expired; lifespan's " +
    'counts read the primaries (the collection index, or SCAN + PTTL)',
  acknowledged:
    'a write is acknowledged by its primary alone (asynchronous replication): a failover right after it can lose it, ' +
    'unless the store waits for replicas (waitForReplicas)',
  notifications:
    'keyspace notifications (expired events) are node-local: a listener must subscribe on every primary and again after a failover',
} as const;
