/**
 * MongoDB TTL facts, in MongoDB's words, as lifespan states them. Sources: the MongoDB
 * manual's TTL index pages (https://www.mongodb.com/docs/manual/core/index-ttl/). Claims no live
 * test has confirmed carry UNVERIFIED_NOTE where users read them.
 */

export const STORE = 'mongodb';

/** "The TTL index expireAfterSeconds value must be within 0 and 2147483647 inclusive." [V index-ttl.txt §1.2] */
export const MAX_EXPIRE_AFTER_SECONDS = 2_147_483_647;

/** ttlMonitorSleepSecs default [V ttl.idl; fact-ttl-collection-background-timing.rst §1.4]. */
export const TTL_MONITOR_PERIOD_SECONDS = 60;

/** Converting a non-TTL single-field index to TTL with collMod: "starting in 5.1" [V index-ttl.txt §1.6]. */
export const COLLMOD_CONVERT_MIN_VERSION = [5, 1] as const;

/** Update pipelines and $$NOW: new in 4.2 [V §1.10]; lifespan's writes need both. */
export const PIPELINE_UPDATE_MIN_VERSION = '4.2';

/** Server error codes lifespan acts on (by code, never by message text) [V §1.7; server error_codes.yml]. */
export const ERROR_CODES = {
  /** Same key (+ identifying options), different non-identifying options such as expireAfterSeconds. */
  indexOptionsConflict: 85,
  /** An index of the same name has a different key pattern, collation or partial filter. */
  indexKeySpecsConflict: 86,
  namespaceNotFound: 26,
  indexNotFound: 27,
  namespaceExists: 48,
  duplicateKey: 11000,
} as const;

/** The one index option that makes a single-field index a TTL index. */
export const EXPIRE_AFTER_SECONDS = 'expireAfterSeconds';

/** Retroactivity of a collMod is stated by the manual, but no live test of lifespan has confirmed it yet. */
export const RETROACTIVITY_VERIFIED = false;
export const UNVERIFIED_NOTE = 'per the MongoDB manual';

/** Sentences explain(), plan steps and docs share, so they cannot drift apart. */
export const SAY = {
  monitor: `the TTL monitor deletes them about every ${TTL_MONITOR_PERIOD_SECONDS}s`,
  stillReturned: 'until then they are still returned by queries',
  hidden: "until then lifespan's read filter (hideExpired) hides them from every read",
  deletionBy: 'the TTL monitor (a background thread of mongod, deleting on the primary only)',
  deletionLag:
    `runs every ${TTL_MONITOR_PERIOD_SECONDS}s (ttlMonitorSleepSecs); at most 50000 documents or 1s per index ` +
    'per sub-pass, so under load expired documents can stay longer',
  notADate: (field: string) => `a document whose ${field} is missing or not a date never expires`,
  collModRetroactive: (field: string) =>
    `collMod changes expireAfterSeconds in place and is retroactive: every stored document is judged against ` +
    `the new value at the next monitor pass, so shortening it makes documents whose ${field} is older than ` +
    `now − new TTL eligible for deletion at once (${UNVERIFIED_NOTE})`,
  createRetroactive: (field: string, seconds: number) =>
    `creating a TTL index on a populated collection is retroactive: documents whose ${field} is older than ` +
    `now − ${seconds}s are eligible for deletion at the next monitor pass (${UNVERIFIED_NOTE})`,
  stamped: (field: string) =>
    `the default is stamped into ${field} when a document is written, so changing it affects new writes only; ` +
    `stored documents keep their ${field} until they are rewritten`,
  noCompoundNoId: 'a TTL index is single-field: never compound, never on _id',
  range: `expireAfterSeconds is a whole number of seconds in 0..${MAX_EXPIRE_AFTER_SECONDS} (int32)`,
  primaryOnly: 'the monitor deletes on the primary only; secondaries replicate the deletes',
  needs42: `writes use update pipelines with $$NOW (MongoDB ${PIPELINE_UPDATE_MIN_VERSION}+)`,
} as const;

/** True when `version` ("5.0.14", "7.0.2-rc1") is at least major.minor. */
export function versionAtLeast(version: string | null, [major, minor]: readonly [number, number]): boolean {
  if (version === null) return false;
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const [ma, mi] = [Number(match[1]), Number(match[2])];
  return ma > major || (ma === major && mi >= minor);
}
