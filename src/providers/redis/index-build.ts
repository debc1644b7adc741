import { mapBounded } from '../../runtime/bounded';
import { indexKeyOf, REINDEX_SCRIPT, type IndexLayout } from './collection-index';
import type { KeyspaceMapping } from './compile';
import type { CallPlace, RedisClientLike } from './gateway';
import { isIndexed, markIndexed } from './index-marker';
import { scanPattern } from './keys';
import { scanKeys, walkedNodes, type ScanWalk } from './scan';
import { runScript } from './scripts';

/**
 * Records stored before the collection index existed (an older lifespan, or a writer that does not
 * keep it) have no member in it. The first find() / count() of a collection whose index is not
 * marked complete builds it once: one SCAN walk of the database (as every read did before), one
 * script per record key that adds its member with its current expiry (atomic per key: a key deleted
 * meanwhile is not added), then the mark. Writes made meanwhile keep the index themselves.
 * Returns the walk, or undefined when the index was complete already.
 */
export async function ensureIndexed(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  place: CallPlace,
): Promise<ScanWalk | undefined> {
  if (await isIndexed(client, layout, mapping, place)) return undefined;
  const walk = await scanKeys(client, scanPattern(layout.prefix, mapping, {}), place, async (keys) => {
    await mapBounded(keys, (key) =>
      runScript(client, REINDEX_SCRIPT, [key, indexKeyOf(layout, mapping, key)], [], place),
    );
    return true;
  });
  await markIndexed(client, layout, mapping, place);
  return walk;
}

/** How a cost line says the walk that built the index. */
export function builtText(walk: ScanWalk, client: RedisClientLike): string {
  return `the collection index was built first: SCAN walked the database once in ${walk.calls} call(s)${walkedNodes(walk, client)}`;
}
