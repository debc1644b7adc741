/**
 * Azure Cosmos DB (API for NoSQL) TTL facts, in the store's own words, as lifespan states them.
 * Sources: the Azure Cosmos DB documentation (https://learn.microsoft.com/azure/cosmos-db/nosql/time-to-live,
 * how-to-time-to-live, ContainerProperties.DefaultTimeToLive). Claims not confirmed by a live test
 * carry UNVERIFIED_NOTE where users read them.
 */

export const STORE = 'cosmos';

/** Largest DefaultTimeToLive / item ttl the service accepts [V .NET ContainerProperties docs]. */
export const MAX_COSMOS_TTL = 2_147_483_647;

/** DefaultTimeToLive -1: TTL on, no default; item ttl -1: this item never expires [V time-to-live.md]. */
export const TTL_ON_NO_DEFAULT = -1;

/** The partition key path used when the entity declares no @PartitionKey next to a @ClusteringKey. */
export const DEFAULT_PARTITION_KEY_PATH = '/id';

/**
 * Item properties the service owns or interprets. A member stored under one of these names would be
 * overwritten or change expiry, so the model is rejected instead.
 */
export const RESERVED_PROPERTIES: readonly string[] = ['ttl', '_rid', '_self', '_etag', '_attachments', '_ts', '_lsn'];

/** The property that names the entity of an item, so entities can share a container. */
export const TYPE_PROPERTY = '$type';

/** Characters the service does not allow in an item id. */
export const FORBIDDEN_ID_CHARACTERS = /[/\\?#]/;
export const MAX_ID_LENGTH = 255;

/** Operations in one transactional batch (the service limit). */
export const MAX_BATCH_OPERATIONS = 100;

/**
 * Whether a DefaultTimeToLive change re-judges existing items against their _ts. Derived from the
 * Cosmos docs, not stated by Microsoft [D store-ttl.md §3.4]; the live suite (test/cosmos/live.test.ts)
 * settles it. Flip to true only after that suite passed against a real account.
 */
export const RETROACTIVITY_VERIFIED = false;
export const UNVERIFIED_NOTE = 'per the Azure Cosmos DB documentation';
/** What qualifies every retroactivity claim users read. */
export const RETROACTIVE_QUALIFIER = RETROACTIVITY_VERIFIED ? 'confirmed on a real account' : UNVERIFIED_NOTE;

/**
 * Whether the service's own expiry behaviour (expired items gone from reads at once, background
 * deletion, an item ttl ignored while the container has TTL off, 0 and null refused) has been seen
 * on a real account. The protocol server the suite runs against never expires anything, so only
 * test/cosmos/live.test.ts can settle it; flip to true after it passed against a real account.
 */
export const SERVICE_EXPIRY_VERIFIED = false;
/** What qualifies every claim about the service's own expiry behaviour users read. */
export const SERVICE_QUALIFIER = SERVICE_EXPIRY_VERIFIED ? 'confirmed on a real account' : UNVERIFIED_NOTE;
const q = ` (${SERVICE_QUALIFIER})`;

export const PHRASES = {
  countsFrom: "counts from each item's last write (_ts)",
  visibility: 'expired items disappear from queries at once',
  deletion: `are physically deleted in the background with spare RUs${q}`,
  deletionBy: 'Cosmos DB background TTL deletion',
  deletionLag: `uses request units left over from user requests: unbounded when the container is busy (on serverless accounts it is billed like deletes)${q}`,
  everyWriteRestarts: 'every write (create, upsert, replace, patch, setTtl) resets _ts and restarts the countdown',
  valueRange: `DefaultTimeToLive and item ttl: 1–2147483647 s, or -1 (never); the service rejects 0 and null${q}`,
  granularity: 'whole seconds: _ts has a resolution of one second',
  itemTtlNeedsContainer: `an item ttl applies only while the container has DefaultTimeToLive set; removing it stops all expiry, item ttl values included${q}`,
  itemTtlIgnored: `items never expire, and an item ttl would be ignored${q}`,
} as const;

export function retroactiveChangeText(): string {
  return (
    'changing DefaultTimeToLive re-judges every item without its own ttl against its _ts at once ' +
    '(shortening it can expire many items immediately); items with their own ttl keep it ' +
    `(retroactive; ${RETROACTIVE_QUALIFIER})`
  );
}

export function partitionKeyFixed(path: string): string {
  return `partition key ${path} is fixed when the container is created; changing it needs a new container and a copy of the items`;
}
