import { mapBounded } from '../../runtime/bounded';
import { indexKeyOf, REINDEX_SCRIPT, type IndexLayout } from './collection-index';
import type { KeyspaceMapping } from './compile';
import type { CallPlace, RedisClientLike } from './gateway';
import { isIndexed, markIndexed } from './index-marker';
import { scanPattern } from './keys';
import { scanKeys, type ScanWalk } from './scan';
import { runScript } from './scripts';

/** Builds under way, per client and prefix + collection: concurrent first reads share one walk. */
const building = new WeakMap<RedisClientLike, Map<string, Promise<ScanWalk | undefined>>>();

/**
 * Records stored before the collection index existed (an older lifespan, or a writer that does not
 * keep it) have no member in it. The first find() / count() of a collection whose index is not
 * marked complete builds it once: one SCAN walk of the database (as every read did before), one
 * script per record key that adds its member with its current expiry (atomic per key: a key deleted
 * meanwhile is not added), then the mark (index-marker.ts). Writes made meanwhile keep the index
 * themselves; reads that start while a build runs wait for that build instead of walking again.
 * Returns the walk, or undefined when the index was complete already.
 */
export function ensureIndexed(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  place: CallPlace,
): Promise<ScanWalk | undefined> {
  const name = `${layout.prefix}\u0000${mapping.collection}`;
  const running = building.get(client) ?? new Map<string, Promise<ScanWalk | undefined>>();
  building.set(client, running);
  const shared = running.get(name);
  if (shared) return shared;
  const build = buildIndex(client, layout, mapping, place).finally(() => running.delete(name));
  running.set(name, build);
  return build;
}

async function buildIndex(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  place: CallPlace,
): Promise<ScanWalk | undefined> {
  if ((await isIndexed(client, layout, mapping, place)).indexed) return undefined;
  const walk = await scanKeys(client, scanPattern(layout.prefix, mapping, {}), place, async (keys) => {
    await mapBounded(keys, (key) =>
      runScript(client, REINDEX_SCRIPT, [key, indexKeyOf(layout, mapping, key)], [], place),
    );
    return true;
  });
  await markIndexed(client, layout, mapping, place);
  return walk;
}
