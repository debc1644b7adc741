import type { KeyspaceMapping } from './compile';
import type { IndexLayout } from './collection-index';
import { call, type CallPlace, type RedisClientLike } from './gateway';

/**
 * The mark of a complete collection index (index-build.ts): a hash under the prefix naming the
 * collections whose index was built over the records stored before it, a field per collection,
 * on one slot (`{lifespan}`) like the recorded default TTLs.
 */
export function indexedMarkerKey(prefix: string): string {
  return `${prefix}{lifespan}:indexed`;
}

/** Collections seen indexed, per client and prefix: the marker is read once per process. */
const seenIndexed = new WeakMap<RedisClientLike, Set<string>>();

/** True when the collection's index is complete (the marker says so). */
export async function isIndexed(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  place: CallPlace,
): Promise<boolean> {
  const name = `${layout.prefix}\u0000${mapping.collection}`;
  if (seenIndexed.get(client)?.has(name)) return true;
  const flag = await call<string | null>(client, ['HGET', indexedMarkerKey(layout.prefix), mapping.collection], place);
  if (flag !== '1') return false;
  markSeen(client, name);
  return true;
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
  await call(client, ['HSET', indexedMarkerKey(layout.prefix), mapping.collection, '1'], place);
  markSeen(client, `${layout.prefix}\u0000${mapping.collection}`);
}
