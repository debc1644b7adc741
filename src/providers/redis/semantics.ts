/**
 * Redis expiry facts, in Redis's words, as lifespan states them. Sources: the Redis
 * command reference (https://redis.io/docs/latest/commands/expire/, /ttl/, /set/).
 * The claims marked "observed" are checked against a real Redis 7 server by test/redis.
 */

export const STORE = 'redis';

/** EXPIRE … GT|LT|NX|XX, which { extend } needs, is new in Redis 7.0 [V expire.md history]. */
export const MIN_SERVER_VERSION = [7, 0] as const;

/** "A String value can be at most 512 megabytes in length" [V data-types/strings]. */
export const MAX_VALUE_BYTES = 512 * 1024 * 1024;

/** SCAN … COUNT hint lifespan uses for walks (pages, the index build, plan --counts before the index). */
export const SCAN_COUNT = 1000;

/**
 * plan({ counts: true }) walks at most this many keys of the database per step (SCAN calls ×
 * SCAN_COUNT, matching or not: SCAN's cost is the keys it walks) and says "at least" when it stops.
 */
export const COUNT_SCAN_BOUND = 100_000;

/** The SCAN calls of one bounded count: COUNT_SCAN_BOUND keys walked, SCAN_COUNT per call. */
export const COUNT_SCAN_CALLS = Math.ceil(COUNT_SCAN_BOUND / SCAN_COUNT);

/** Sentences explain(), plan steps and docs share, so they cannot drift apart. */
export const SAY = {
  perKey: 'each key carries its own expiry, an absolute Unix time in ms set by the write (SET … EX n)',
  passive: 'an expired key is invisible at once: any read of it finds no key (passive expiry on access)',
  active:
    'the active expiry cycle (about 10 times a second, sampling keys that have an expiry) deletes expired keys, ' +
    'so memory comes back gradually',
  deletionBy: 'the Redis server: on access (passive expiry) and by the active expiry cycle',
  deletionLag:
    'invisible at once; memory reclaimed gradually by the active cycle (sampling about 10 times a second), with no bound on when',
  newWritesOnly:
    'Redis keeps no default TTL: lifespan sends EX <default> with each write, so changing the default affects ' +
    'new writes only; stored keys keep the expiry their last write gave them',
  setClears: "a plain SET discards a key's expiry; lifespan always sends EX, KEEPTTL or nothing on purpose",
  replicas:
    "replicas do not expire keys themselves: they wait for the primary's DEL (reads on a replica already " +
    'answer as if a logically expired key were absent)',
  persistence:
    'the expiry is an absolute time and keeps running while the server is down: an RDB/AOF restore drops keys ' +
    'already past their expiry',
  eviction:
    'with maxmemory set, eviction policies (volatile-ttl, volatile-lru, volatile-lfu, volatile-random, allkeys-*) ' +
    'can remove keys BEFORE their TTL; noeviction refuses writes instead',
  precision: 'expiry precision is 1 ms (the error is 0 to 1 ms)',
  valueLimit:
    'one record is one JSON string value: at most 512 MiB, and no longer than a Node.js string (binary members grow by a third as base64)',
  scan:
    'find() and count() read the collection index (a sorted set per collection, per slot on a cluster, of record keys ' +
    'scored by expiry, kept by the write scripts), a page of at most 1,000 members per script, each value read in that script: ' +
    'their cost grows with the collection, not the database; ' +
    'findPage(), iterate() and deleteMany() walk the same index with ZSCAN (COUNT 100) in read-only scripts: on one server ' +
    'the script hands out the keys and one MGET per script reads their values; on a cluster, and for deleteMany, the script ' +
    'reads them (GET; deleteMany also PEXPIRETIME); a key that is gone is left out by its read, not by its index score; ' +
    'the first of these reads on a collection written before the index builds it once with a SCAN of the database',
  cluster:
    'on Redis Cluster, a unit of work must stay within one hash slot (one partition key value): it runs as one script',
  version: 'needs Redis 7.0+ (EXPIRE … GT for { extend })',
} as const;

/** True when `version` ("7.0.15") is at least major.minor. */
export function versionAtLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const [ma, mi] = [Number(match[1]), Number(match[2])];
  return ma > major || (ma === major && mi >= minor);
}
