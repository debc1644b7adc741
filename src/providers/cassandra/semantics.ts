/**
 * Cassandra's TTL facts, in Cassandra's words. Each constant names where it comes from
 * (the Apache Cassandra documentation, https://cassandra.apache.org/doc/latest/, and its source;
 * [V] verified in source, [D] derived).
 */

export const STORE = 'cassandra';

/** Attributes.MAX_TTL = 20 * 365 * 24 * 60 * 60 [V]; also the bound on default_time_to_live (TableParams) [V]. */
export const CASSANDRA_MAX_TTL_SECONDS = 630_720_000;

/**
 * Largest local expiration time while storage_compatibility_mode is CASSANDRA_4 (the 5.0 default)
 * and on every 4.x node: Cell.MAX_DELETION_TIME = 2^31 - 2 s [V ExpirationDateOverflowHandling in
 * cassandra-all 5.0.9: a write is rejected when now + ttl > this value].
 */
export const CEILING_2038 = new Date('2038-01-19T03:14:06Z');

/** The ceiling once storage_compatibility_mode is NONE on 5.0 (CASSANDRA-14227) [V 5.0 NEWS.txt]. */
export const CEILING_2106 = new Date('2106-02-07T06:28:13Z');

/** Table option default [V ddl.adoc]. */
export const DEFAULT_GC_GRACE_SECONDS = 864_000;

/** max_hint_window default, 3h [V cassandra.yaml; Cassandra hints doc]. */
export const DEFAULT_MAX_HINT_WINDOW_SECONDS = 10_800;

/** tombstone_warn_threshold / tombstone_failure_threshold defaults [V cassandra.yaml]. */
export const TOMBSTONE_WARN = 1_000;
export const TOMBSTONE_FAIL = 100_000;

/** Where explain()'s cluster sentences come from (public pages). */
export const CLUSTER_SOURCES = {
  tombstones: 'https://cassandra.apache.org/doc/latest/cassandra/managing/operating/compaction/tombstones.html',
  hints: 'https://cassandra.apache.org/doc/latest/cassandra/managing/operating/hints.html',
  /** Describes 3.x, where an expired hint is dropped: cited only as the contrast to 5.0. */
  hintLifetime: 'https://thelastpickle.com/blog/2018/03/21/hinted-handoff-gc-grace-demystified.html',
  hintIsLive: 'https://github.com/apache/cassandra/blob/cassandra-5.0/src/java/org/apache/cassandra/hints/Hint.java',
  gcGraceZero: 'https://github.com/palantir/atlasdb/pull/3513',
  thresholds: 'https://cassandra.apache.org/doc/latest/cassandra/managing/configuration/cass_yaml_file.html',
} as const;

/** How the node rejects a TTL past its ceiling (policy REJECT, the default) [V]. */
export const OVERFLOW_REJECT_PATTERN = /exceeds maximum supported expiration date/;

/** The sentences explain(), plan steps and docs share, so they cannot drift apart. */
export const SAY = {
  purge: (gcGrace: number) =>
    `compaction after gc_grace_seconds (${gcGrace}${gcGrace === DEFAULT_GC_GRACE_SECONDS ? ' by default' : ''})`,
  changeEffect:
    'ALTER TABLE … WITH default_time_to_live changes the default for new writes only; ' +
    'existing cells keep the expiry stamped when they were written until they are rewritten',
  keepUnsupported:
    "Cassandra has no write that keeps a cell's expiry: every INSERT stamps a new one (or none); " +
    'reading TTL() and writing it back is not exact (whole seconds, and a concurrent write can slip in between)',
  extendUnsupported:
    'Cassandra has no conditional "extend only" TTL: max(current, now + n) would need TTL() read first, ' +
    'which is not exact (whole seconds, and a concurrent write can slip in between)',
} as const;

export function ceilingText(ceiling: Date | null): string {
  if (ceiling === null) return 'no expiration ceiling checked (expirationCeiling: null)';
  return `now + TTL must not pass ${isoSeconds(ceiling)} (${ceilingSource(ceiling)}); the node rejects such writes`;
}

function ceilingSource(ceiling: Date): string {
  if (ceiling.getTime() === CEILING_2038.getTime()) {
    return 'the expiration ceiling of Cassandra 4.x and of 5.0 in its default storage_compatibility_mode CASSANDRA_4';
  }
  if (ceiling.getTime() === CEILING_2106.getTime()) {
    return 'the expiration ceiling of Cassandra 5.0 with storage_compatibility_mode NONE';
  }
  return 'the expiration ceiling configured for this store';
}

export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** CQL's LIMIT is a 32-bit int: find({}, { limit }) takes no more. */
export const MAX_LIMIT = 2_147_483_647;
