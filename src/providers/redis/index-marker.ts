import type { KeyspaceMapping } from './compile';
import { serverIndexKey, type IndexLayout } from './collection-index';
import { call, type CallPlace, type RedisClientLike } from './gateway';

/**
 * The mark of a complete collection index (index-build.ts): a hash under the prefix naming the
 * collections whose index was built over the records stored before it, a field per collection,
 * on one slot (`{lifespan}`) like the recorded default TTLs. On one server the build also adds
 * the member '' at -inf to the index itself (reindex-lua.ts), and the index counts as complete
 * only while that member is there: an index lost after it was built (evicted under maxmemory, a
 * stray DEL, or expired with its last record) is built again rather than read as empty. A
 * cluster's per-slot index has no such member, so it gets no expiry either (reindex-lua.ts): only
 * eviction or a DEL by hand can lose it unnoticed.
 */
export function indexedMarkerKey(prefix: string): string {
  return `${prefix}{lifespan}:indexed`;
}

/** The index member that says the index was built complete (no record key is empty). */
export const BUILT_MEMBER = '';

/** Collections seen indexed, per client and prefix: the marker is read once per process. */
const seenIndexed = new WeakMap<RedisClientLike, Set<string>>();

/** Whether the collection's index is complete, and how many round trips it took to know. */
export interface IndexedState {
  readonly indexed: boolean;
  readonly roundTrips: number;
}

/**
 * The marker says complete and (on one server) the index still holds its built member. Once seen
 * complete in this process only the index reads check the member (index-reads.ts), and
 * forgetIndexed() is called when they find it gone.
 */
export async function isIndexed(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  place: CallPlace,
): Promise<IndexedState> {
  const name = `${layout.prefix}\u0000${mapping.collection}`;
  if (seenIndexed.get(client)?.has(name) === true) return { indexed: true, roundTrips: 0 };
  const flag = call<string | null>(client, ['HGET', indexedMarkerKey(layout.prefix), mapping.collection], place);
  const built = layout.cluster
    ? Promise.resolve('-inf')
    : call<unknown>(client, ['ZSCORE', serverIndexKey(layout.prefix, mapping.collection), BUILT_MEMBER], place);
  const [mark, member] = await Promise.all([flag, built]);
  const indexed = mark === '1' && member !== null && member !== undefined;
  if (indexed) markSeen(client, name);
  return { indexed, roundTrips: 1 };
}

/** An index read found the index lost: the next check reads the marker and the index again. */
export function forgetIndexed(client: RedisClientLike, layout: IndexLayout, mapping: KeyspaceMapping): void {
  seenIndexed.get(client)?.delete(`${layout.prefix}\u0000${mapping.collection}`);
}

function markSeen(client: RedisClientLike, name: string): void {
  const names = seenIndexed.get(client) ?? new Set<string>();
  names.add(name);
  seenIndexed.set(client, names);
}

/** Records the collection's index as complete (after a backfill walked every stored record). */
export async function markIndexed(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  place: CallPlace,
): Promise<void> {
  if (!layout.cluster) {
    await call(client, ['ZADD', serverIndexKey(layout.prefix, mapping.collection), '-inf', BUILT_MEMBER], place);
  }
  await call(client, ['HSET', indexedMarkerKey(layout.prefix), mapping.collection, '1'], place);
  markSeen(client, `${layout.prefix}\u0000${mapping.collection}`);
}
