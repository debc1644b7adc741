import type { KeyspaceMapping } from './compile';
import type { RedisClientLike } from './gateway';
import { escapePart } from './keys';
import { RedisRouter } from './router';
import { REINDEX_LUA } from './reindex-lua';
import { script } from './scripts';
import { slotTag } from './slot-tags';
import { hashSlot } from './slots';

/**
 * The collection index (issue 29): a sorted set per collection whose members are the record keys
 * and whose scores are their absolute expiry in Unix ms (+inf: no expiry), so count / find /
 * forecast / plan --counts read what the collection holds instead of SCANning the database.
 * Every script that writes or deletes a record updates its member in the same script (atomic with
 * the write), drops the members already due, and (one server) gives the index key the latest
 * expiry it holds, so an index whose records all expired expires with them; a cluster's per-slot
 * index gets no expiry (reindex-lua.ts says why).
 *
 * On one server the index is `<prefix>{lifespan}:index:<collection>`. On Redis Cluster a script
 * can only touch keys of one slot, and the records of one collection hash to every slot, so there
 * is one index per slot: `<prefix>{<slot tag>}:index:<collection>`, in the slot of the records it
 * lists (slot-tags.ts). A record key never starts with `{` after the prefix (its parts are escaped).
 */
export interface IndexLayout {
  readonly prefix: string;
  readonly cluster: boolean;
}

export function indexLayout(client: RedisClientLike, prefix: string): IndexLayout {
  return { prefix, cluster: client instanceof RedisRouter && client.cluster };
}

/** The index of one collection on one server (named once per prefix and collection: every write names it). */
const serverKeys = new Map<string, string>();
export function serverIndexKey(prefix: string, collection: string): string {
  const id = `${prefix}\u0000${collection}`;
  let key = serverKeys.get(id);
  if (key === undefined) {
    key = `${prefix}{lifespan}:index:${escapePart(collection)}`;
    serverKeys.set(id, key);
  }
  return key;
}

/** The index of one collection's records in one cluster slot. */
export function slotIndexKey(prefix: string, collection: string, slot: number): string {
  return `${prefix}{${slotTag(slot)}}:index:${escapePart(collection)}`;
}

/** The index key that lists `recordKey` (a record of `mapping`). */
export function indexKeyOf(layout: IndexLayout, mapping: KeyspaceMapping, recordKey: string): string {
  if (!layout.cluster) return serverIndexKey(layout.prefix, mapping.collection);
  return slotIndexKey(layout.prefix, mapping.collection, hashSlot(recordKey));
}

/**
 * One command on one record key, and its index entry, atomically: KEYS[1] the record, KEYS[2] its
 * index; ARGV the command's name, then its arguments after the key. Replies what the command does
 * (SET … NX: nil when the key is live; SET … GET: the old value; DEL: the count).
 */
export const INDEXED_COMMAND_SCRIPT = script(`#!lua
${REINDEX_LUA}
local reply = redis.call(ARGV[1], KEYS[1], unpack(ARGV, 2))
-- A SET that wrote (an OK status: not NX's nil, not GET's old value) with EX: its expiry in ms
-- (ARGV[2] is the value, so options start at 3; Redis takes the last EX given).
local written_ms = nil
if ARGV[1] == 'SET' and type(reply) == 'table' and reply.ok ~= nil then
  for i = 3, #ARGV - 1 do
    if ARGV[i] == 'EX' then written_ms = tonumber(ARGV[i + 1]) * 1000 end
  end
end
lifespan_reindex(KEYS[1], KEYS[2], written_ms)
return reply
`);

/** Backfill of one record written before the index (or by a writer that does not keep it): KEYS record, index. */
export const REINDEX_SCRIPT = script(`#!lua
${REINDEX_LUA}
lifespan_reindex(KEYS[1], KEYS[2])
return 1
`);

/** The script keys and arguments of `command` (name, key, rest…) run with its index entry. */
export function indexedCall(layout: IndexLayout, mapping: KeyspaceMapping, command: readonly string[]) {
  const key = command[1] as string;
  const args = command.slice(1);
  args[0] = command[0] as string;
  return { keys: [key, indexKeyOf(layout, mapping, key)], args };
}
