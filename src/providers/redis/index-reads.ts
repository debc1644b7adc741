import type { KeyspaceMapping } from './compile';
import { serverIndexKey, slotIndexKey, type IndexLayout } from './collection-index';
import { call, type CallPlace, type RedisClientLike } from './gateway';
import { RedisRouter } from './router';
import { runScriptFor, script } from './scripts';

/**
 * Reads of the collection index (collection-index.ts). On one server a read is one script on one
 * sorted set. On Redis Cluster it is one script per primary, sent to that primary, reading the
 * index keys of the slots it serves: they are named in ARGV, not KEYS (Redis checks that declared
 * keys share one slot; `allow-cross-slot-keys`, Redis 7.0+, lets a script read keys of several
 * slots of its own node), so its cost grows with the slots (16384), never with the database.
 * ARGV[1] is the number of index keys, which follow it; the script's own arguments come after.
 * "Now" is the server's clock (TIME), the clock Redis expires keys by.
 */
interface IndexTarget {
  readonly client: RedisClientLike;
  readonly keys: readonly string[];
}

const NOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

const INDEXES_LUA = `
local k = tonumber(ARGV[1])
local indexes, rest = {}, {}
for i = 2, k + 1 do indexes[#indexes + 1] = ARGV[i] end
for i = k + 2, #ARGV do rest[#rest + 1] = ARGV[i] end
`;

/**
 * Per argument j: how many members expire after now + j ms ('inf': the members without expiry),
 * summed over the indexes. -1 counts the live members (expiry at or after now).
 */
const COUNT_AFTER = script(`#!lua flags=no-writes,allow-cross-slot-keys
${NOW_LUA}
${INDEXES_LUA}
local out = {}
for j = 1, #rest do out[j] = 0 end
for _, idx in ipairs(indexes) do
  for j, off in ipairs(rest) do
    local min = off == 'inf' and '+inf' or '(' .. string.format('%d', now + tonumber(off))
    out[j] = out[j] + redis.call('ZCOUNT', idx, min, '+inf')
  end
end
return out
`);

/** The live members of the indexes in order, at most the argument of them (0: all). */
const LIVE_MEMBERS = script(`#!lua flags=no-writes,allow-cross-slot-keys
${NOW_LUA}
${INDEXES_LUA}
local limit = tonumber(rest[1])
local out = {}
for _, idx in ipairs(indexes) do
  local got
  if limit > 0 then
    got = redis.call('ZRANGE', idx, string.format('%d', now), '+inf', 'BYSCORE', 'LIMIT', 0, limit - #out)
  else
    got = redis.call('ZRANGE', idx, string.format('%d', now), '+inf', 'BYSCORE')
  end
  for _, member in ipairs(got) do out[#out + 1] = member end
  if limit > 0 and #out >= limit then break end
end
return out
`);

/** The index keys of `mapping` to read, grouped by the primary that holds them (one slot only when given). */
async function targets(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  slot?: number,
): Promise<IndexTarget[]> {
  if (!layout.cluster || !(client instanceof RedisRouter)) {
    return [{ client, keys: [serverIndexKey(layout.prefix, mapping.collection)] }];
  }
  const owners = await client.nodes.slotOwners();
  return owners
    .map((o) => ({
      client: o.client,
      keys: o.slots
        .filter((s) => slot === undefined || s === slot)
        .map((s) => slotIndexKey(layout.prefix, mapping.collection, s)),
    }))
    .filter((t) => t.keys.length > 0);
}

/** The ARGV head naming a target's index keys. */
function named(t: IndexTarget): string[] {
  return [String(t.keys.length), ...t.keys];
}

/** What an index read cost, for cost lines. */
export interface IndexReadCost {
  readonly scripts: number;
  readonly indexKeys: number;
}

export function indexReadText(cost: IndexReadCost, layout: IndexLayout): string {
  return layout.cluster
    ? `read the collection index: ${cost.scripts} script(s), one per cluster primary, over ${cost.indexKeys} per-slot sorted sets`
    : 'read the collection index: one script over one sorted set';
}

/** COUNT_AFTER over the collection (see there), with what it cost. */
export async function countAfter(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  offsets: readonly string[],
  place: CallPlace,
): Promise<{ counts: number[]; cost: IndexReadCost }> {
  const reads = await targets(client, layout, mapping);
  const replies = await Promise.all(
    reads.map((t) => runScriptFor<unknown>(t.client, COUNT_AFTER, [], [...named(t), ...offsets], place, true)),
  );
  const counts = offsets.map((_, j) =>
    replies.reduce<number>((sum, r) => sum + Number(Array.isArray(r) ? r[j] : 0), 0),
  );
  return { counts, cost: { scripts: reads.length, indexKeys: reads.reduce((n, t) => n + t.keys.length, 0) } };
}

/** Record keys one primary holds, and how to read their values there. */
export interface MemberGroup {
  readonly members: string[];
  /** The values of `keys` (a chunk of `members`), nil where the key is gone. */
  readonly values: (keys: readonly string[]) => Promise<Array<string | null>>;
}

/**
 * The values of ARGV's keys, nil where absent or not a string (as MGET answers), keys of several
 * slots of this node (see above).
 */
const READ_VALUES = script(`#!lua flags=no-writes,allow-cross-slot-keys
local out = {}
for i, key in ipairs(ARGV) do
  local v = redis.pcall('GET', key)
  if type(v) == 'table' then v = false end
  out[i] = v
end
return out
`);

/**
 * The live record keys of the collection (of one slot when given), at most `limit` (0: all),
 * grouped by primary. On one server the values are read with MGET; on a cluster with one script
 * per primary and chunk (an MGET there would be split into one command per slot).
 */
export async function liveMembers(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  limit: number,
  place: CallPlace,
  slot?: number,
): Promise<MemberGroup[]> {
  const all = await targets(client, layout, mapping, slot);
  const read = async (t: IndexTarget, left: number): Promise<MemberGroup> => {
    const reply = await runScriptFor<unknown>(t.client, LIVE_MEMBERS, [], [...named(t), String(left)], place, true);
    const values = layout.cluster
      ? (keys: readonly string[]) => runScriptFor<Array<string | null>>(t.client, READ_VALUES, [], keys, place, true)
      : (keys: readonly string[]) => call<Array<string | null>>(t.client, ['MGET', ...keys], place);
    return { members: Array.isArray(reply) ? reply.map(String) : [], values };
  };
  // Every primary at once when all members are wanted; one after another while a limit is left.
  if (limit === 0) return Promise.all(all.map((t) => read(t, 0)));
  const groups: MemberGroup[] = [];
  let found = 0;
  for (const t of all) {
    const group = await read(t, limit - found);
    groups.push(group);
    found += group.members.length;
    if (found >= limit) break;
  }
  return groups;
}
