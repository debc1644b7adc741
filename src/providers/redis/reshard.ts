import { slotIndexKey, type IndexLayout } from './collection-index';
import type { KeyspaceMapping } from './compile';
import { serverMessage, type CallPlace, type RedisClientLike } from './gateway';
import { RedisRouter } from './router';

/**
 * The index scripts (index-reads.ts, index-scan.ts) go to the primary the cluster client's slot
 * map names for their slots, and name the index keys in ARGV. After a slot moved (CLUSTER SETSLOT
 * … NODE, https://redis.io/docs/latest/commands/cluster-setslot/) the old owner refuses such a
 * script with "Script attempted to access a non local key in a cluster node": that is not a MOVED
 * reply, so node-redis never reads the cluster's slots again and every later index read fails the
 * same way. A keyed command sent through the cluster client to a moved slot gets MOVED, on which
 * node-redis reads the slot map again (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#moved-redirection).
 */
const NON_LOCAL_KEY = /Script attempted to access a non local key/;

/**
 * Runs `attempt`; when a cluster refuses it with the non-local-key error, makes the client's slot
 * map current (refreshSlotMap) and runs it once more, also when no stale slot was found (another
 * read may have refreshed the map meanwhile). Any other error, or a second refusal (a slot still
 * being migrated: its keys are on two nodes), is thrown as it came: the typed error with the
 * resharding hint (gateway.ts).
 */
export async function retriedAfterReshard<T>(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  place: CallPlace,
  attempt: () => Promise<T>,
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!layout.cluster || !(client instanceof RedisRouter) || !NON_LOCAL_KEY.test(messageOf(error))) throw error;
    const keyOf = (slot: number) => slotIndexKey(layout.prefix, mapping.collection, slot);
    await refreshSlotMap(client, keyOf);
    return attempt();
  }
}

function messageOf(error: unknown): string {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  return `${serverMessage(error)} ${cause === undefined ? '' : serverMessage(cause)}`;
}

/**
 * Asks each primary of the client's slot map which slots it serves itself (its `myself` line of
 * CLUSTER NODES, https://redis.io/docs/latest/commands/cluster-nodes/; a slot being imported or
 * migrated, `[slot-<-id]` / `[slot->-id]`, is not counted), and sends EXISTS of the index key of
 * the first slot the map gives a primary that does not serve it through the cluster client: its
 * MOVED makes node-redis read the slot map again. False when no such slot was found (or a node
 * did not answer): there is nothing to refresh.
 */
export async function refreshSlotMap(client: RedisRouter, keyOf: (slot: number) => string): Promise<boolean> {
  try {
    const owners = await client.nodes.slotOwners();
    const stale = await Promise.all(
      owners.map(async (o) => {
        const own = ownSlots(String(await o.client.sendCommand(['CLUSTER', 'NODES'])));
        return o.slots.find((s) => !own.has(s));
      }),
    );
    const slot = stale.find((s) => s !== undefined);
    if (slot === undefined) return false;
    await client.sendCommand(['EXISTS', keyOf(slot)]);
    return true;
  } catch {
    // The original refusal says more than a failed refresh (CLUSTER NODES denied by an ACL, a node down).
    return false;
  }
}

/** The slots of the `myself` line of a CLUSTER NODES reply. */
export function ownSlots(nodes: string): Set<number> {
  const own = new Set<number>();
  const line = nodes.split('\n').find((l) => (l.split(' ')[2] ?? '').split(',').includes('myself'));
  for (const part of (line ?? '').trim().split(' ').slice(8)) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) continue;
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    for (let s = first; s <= last; s++) own.add(s);
  }
  return own;
}
