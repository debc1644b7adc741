import { StoreError } from '../../errors';
import type { KeyspaceMapping } from './compile';
import { serverIndexKey, slotIndexKey, type IndexLayout } from './collection-index';
import type { CallPlace, RedisClientLike } from './gateway';
import { RedisRouter } from './router';
import { retriedAfterReshard } from './reshard';
import { READ_VALUE_LUA } from './read-value-lua';
import { runScriptFor, script } from './scripts';
import { STORE } from './semantics';

/**
 * Reads of the collection index (collection-index.ts), a page at a time: each page is one script
 * that reads at most PAGE members and, for each, what the read needs of its key, so no script
 * holds the server for longer than a page however large the collection (a script blocks every
 * client while it runs). On one server the script reads one sorted set. On Redis Cluster there is
 * one script per primary and page, sent to that primary, reading the index keys of the slots it
 * serves: they are named in ARGV, not KEYS (Redis checks that declared keys share one slot;
 * `allow-cross-slot-keys`, Redis 7.0+, lets a script read keys of several slots of its own node).
 * "Now" is the server's clock (TIME), the clock Redis expires keys by.
 *
 * Reads reclaim the members they pay for: the page script stays read-only and replies the members
 * whose key it found gone, and one bounded prune script (INDEX_PRUNE) removes them from the index
 * on the primary the page came from. Only writes pruned before (16 members each, reindex-lua.ts),
 * and a per-slot index has no expiry, so after a burst of short-lived records and no writes every
 * read paid one GET / PEXPIRETIME per dead member for ever. Why not ZREM inside the page script:
 * that drops its `no-writes` flag, and Redis refuses a script without it on a read-only replica,
 * when over maxmemory and while the primary refuses writes (min-replicas-to-write, a failed
 * RDB save: https://redis.io/docs/latest/develop/interact/programmability/eval-intro/#script-flags);
 * it would also count as a write and be followed by WAIT (waitForReplicas) on every page. A read
 * must work in all of these; a prune refused there leaves the index as it was and the read's
 * answer is the same, so a failed prune is ignored.
 */
export const PAGE = 1000;

interface IndexTarget {
  readonly client: RedisClientLike;
  readonly keys: readonly string[];
}

/**
 * ARGV: k, the k index keys, then the cursor (position of the index key, 1-based; the last member
 * read and its score, '' at the start), the page size and the mode: 'values' reads each member's
 * value (GET; a key that is gone or not a string is left out: WRONGTYPE is the only error read as
 * "not a record", any other error, such as a key that moved during resharding, fails the script),
 * 'expiry' its PEXPIRETIME (a key that is gone is left out). Every member is read, those past
 * their score too (an expiry moved by hand leaves the score behind: the key's read decides), in
 * index order from the cursor: the rank after the cursor member (ZRANK, O(log n)) while it keeps its score,
 * else (it left the index or was re-scored) the first member at or above its old score (members
 * may then be read twice: the caller skips keys it has seen). Index keys that do not exist cost one EXISTS. With the last argument '1' (one server,
 * first page) the script first checks that the index holds its built member (index-marker.ts) and
 * replies { -1 } when it does not: the index was lost and must be built again.
 * Reply: next position (> k: done), cursor member, cursor score, now, the members met whose key
 * is gone (or, mode 'values', holds another type: the prune keeps those) as position, member
 * pairs (at most ${PAGE}: one per member read), then key, value pairs.
 */
const INDEX_PAGE = script(`#!lua flags=no-writes,allow-cross-slot-keys
${READ_VALUE_LUA}
local t = redis.call('TIME')
local now = string.format('%d', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
local k = tonumber(ARGV[1])
local pos, after, after_score = tonumber(ARGV[k + 2]), ARGV[k + 3], ARGV[k + 4]
local size, mode = tonumber(ARGV[k + 5]), ARGV[k + 6]
if ARGV[k + 7] == '1' and not redis.call('ZSCORE', ARGV[2], '') then return { -1 } end
local out, dead = {}, {}
-- A page holds size entries, from at most ${PAGE} members read: members whose key is gone (most
-- often past their score, not pruned yet) do not fill it, so a limited read over many of them
-- takes one script per ${PAGE} of them, not one per size.
local found, examined = 0, 0
while pos <= k and found < size and examined < ${PAGE} do
  local idx = ARGV[pos + 1]
  local got = {}
  local asked = math.min(size - found, ${PAGE} - examined)
  if redis.call('EXISTS', idx) == 1 then
    -- Members below now are read too: a record whose expiry was moved by hand (EXPIRE) keeps its
    -- old score until a write re-scores it, and is still a record. A dead one costs its GET /
    -- PEXPIRETIME, which answer nil / -2, once: it is replied in dead, and pruned (INDEX_PRUNE).
    -- Only the built member '' is at -inf: it is passed.
    local start = redis.call('ZCOUNT', idx, '-inf', '-inf')
    if after ~= '' then
      local rank = redis.call('ZRANK', idx, after)
      local from
      if rank and redis.call('ZSCORE', idx, after) == after_score then
        from = rank + 1
      else
        from = redis.call('ZCOUNT', idx, '-inf', '(' .. after_score)
      end
      if from > start then start = from end
    end
    got = redis.call('ZRANGE', idx, start, start + asked - 1, 'WITHSCORES')
  end
  for i = 1, #got, 2 do
    local key = got[i]
    after, after_score = key, got[i + 1]
    examined = examined + 1
    if mode == 'values' then
      local v, err = lifespan_read_value(key)
      if err then return redis.error_reply(err) end
      if v then
        out[#out + 1] = key
        out[#out + 1] = v
        found = found + 1
      else
        dead[#dead + 1] = pos
        dead[#dead + 1] = key
      end
    else
      local at = redis.call('PEXPIRETIME', key)
      if at ~= -2 then
        out[#out + 1] = key
        out[#out + 1] = at
        found = found + 1
      else
        dead[#dead + 1] = pos
        dead[#dead + 1] = key
      end
    end
  end
  if #got < asked * 2 then
    pos, after, after_score = pos + 1, '', ''
  end
end
local head = { pos, after, after_score, now, dead }
for _, v in ipairs(out) do head[#head + 1] = v end
return head
`);

/**
 * ARGV: index key, member pairs. Each member is removed from its index only when its key does not
 * exist now: checked and removed in one script, so a record written again since the page read it
 * gone (its key back, its member re-added by that write) keeps its member. It only removes, so it
 * may run over maxmemory (`allow-oom`: "safe ... only deletes data", script flags, link above);
 * on a cluster it goes to the primary the page came from, whose slots hold both the index keys
 * and their members' keys (each per-slot index is in the slot of the records it lists), named in
 * ARGV as the page script does. A key of a slot being migrated that is not on this node fails the
 * script there (no member is removed for it). At most ${PAGE} members: as many as a page read.
 * Reply: the number of members removed.
 */
export const INDEX_PRUNE = script(`#!lua flags=allow-oom,allow-cross-slot-keys
local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('EXISTS', ARGV[i + 1]) == 0 then
    removed = removed + redis.call('ZREM', ARGV[i], ARGV[i + 1])
  end
end
return removed
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

/** What an index read cost, for cost lines. */
export interface IndexReadCost {
  scripts: number;
  indexKeys: number;
  /** The index (one server) had lost its built member: nothing was read, it must be built again. */
  lost: boolean;
  /** Members read whose key was gone (or not a string, mode 'values'). */
  dead: number;
  /** Of those, the members the prune removed from the index. */
  pruned: number;
}

export function indexReadText(cost: IndexReadCost, layout: IndexLayout): string {
  const pages = `${cost.scripts} script(s) of at most ${PAGE} members each`;
  return layout.cluster
    ? `read the collection index: ${pages}, per cluster primary, over ${cost.indexKeys} per-slot sorted sets, checking each member's key`
    : `read the collection index: ${pages} over one sorted set, checking each member's key`;
}

/** One page's entries: a key and its value (mode 'values') or its PEXPIRETIME (mode 'expiry'). */
export interface IndexPage {
  readonly now: number;
  readonly entries: ReadonlyArray<readonly [string, string | number]>;
}

/**
 * Every live member of the collection's index (of one slot when given), a page at a time, each
 * page handed to `visit` until it returns false. A limited read asks for pages of its limit: a
 * page short of it (members whose key is gone) is followed by the next page from the cursor. Primaries are read at the same time, each page
 * after page; a key seen already (moved in the index between pages) is not handed on twice. The
 * members a page found gone are pruned (INDEX_PRUNE) before the next page is read, on the
 * primary the page came from; a pruned cursor member is found again by its score.
 */
/** One slot's indexes only (a partition's records on a cluster); pages smaller than PAGE (a limited read). */
export interface WalkScope {
  readonly slot?: number | undefined;
  readonly pageSize?: number | undefined;
}

export async function walkIndex(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  mode: 'values' | 'expiry',
  place: CallPlace,
  visit: (page: IndexPage) => boolean,
  scope: WalkScope = {},
): Promise<IndexReadCost> {
  const size = String(Math.min(PAGE, Math.max(1, scope.pageSize ?? PAGE)));
  const cost: IndexReadCost = { scripts: 0, indexKeys: 0, lost: false, dead: 0, pruned: 0 };
  const seen = new Set<string>();
  let stopped = false;
  // After a resharding the whole read runs once more on the refreshed slot map (reshard.ts): the
  // keys handed out already are in `seen`, so none is handed out twice.
  await retriedAfterReshard(client, layout, mapping, place, async () => {
    const all = await targets(client, layout, mapping, scope.slot);
    cost.indexKeys = all.reduce((n, t) => n + t.keys.length, 0);
    let failed = false;
    const walk = async (t: IndexTarget): Promise<void> => {
      const named = [String(t.keys.length), ...t.keys];
      let cursor = ['1', '', ''];
      let check = layout.cluster ? '0' : '1';
      while (!stopped && !failed) {
        const args = [...named, ...cursor, size, mode, check];
        const reply = await runScriptFor<unknown>(t.client, INDEX_PAGE, [], args, place, true);
        cost.scripts += 1;
        check = '0';
        if (Array.isArray(reply) && reply.length === 1 && Number(reply[0]) === -1) {
          cost.lost = true;
          return;
        }
        if (!Array.isArray(reply) || reply.length < 5) throw unreadableReply(reply, place);
        const [pos, after, score, now, dead, ...rest] = reply as unknown[];
        if (Array.isArray(dead) && dead.length > 0) {
          cost.dead += dead.length / 2;
          cost.pruned += await prune(t, dead as unknown[], place);
        }
        const entries: Array<readonly [string, string | number]> = [];
        for (let i = 0; i + 1 < rest.length; i += 2) {
          const key = String(rest[i]);
          if (seen.has(key)) continue;
          seen.add(key);
          entries.push([key, mode === 'values' ? String(rest[i + 1]) : Number(rest[i + 1])]);
        }
        // Another primary's page may have said stop while this one was read.
        if (stopped || !visit({ now: Number(now), entries })) stopped = true;
        if (Number(pos) > t.keys.length) return;
        cursor = [String(pos), String(after), String(score)];
      }
    };
    // Every primary's walk ends before the read fails or runs again, so none visits pages after it.
    const ends = await Promise.allSettled(
      all.map((t) =>
        walk(t).catch((error: unknown) => {
          failed = true;
          throw error;
        }),
      ),
    );
    const failure = ends.find((e): e is PromiseRejectedResult => e.status === 'rejected');
    if (failure) throw failure.reason;
  });
  return cost;
}

/**
 * Removes the members of `dead` (position in t.keys, member pairs) whose key is still gone: 0 when
 * the prune was refused (a read-only replica, maxmemory, writes refused) or failed. On one server
 * it goes straight to the client, not through the router: no WAIT for replicas follows it (a
 * prune lost in a failover is only done again by a later read).
 */
async function prune(t: IndexTarget, dead: readonly unknown[], place: CallPlace): Promise<number> {
  const args: string[] = [];
  for (let i = 0; i + 1 < dead.length; i += 2) {
    const idx = t.keys[Number(dead[i]) - 1];
    if (idx !== undefined) args.push(idx, String(dead[i + 1]));
  }
  if (args.length === 0) return 0;
  const client = t.client instanceof RedisRouter && !t.client.cluster ? direct(t.client) : t.client;
  try {
    return Number(await runScriptFor<unknown>(client, INDEX_PRUNE, [], args, place));
  } catch {
    return 0;
  }
}

function direct(router: RedisRouter): RedisClientLike {
  return { sendCommand: (args) => router.nodes.send(undefined, args) };
}

function unreadableReply(reply: unknown, place: CallPlace): StoreError {
  return new StoreError(
    'STORE_OPERATION_FAILED',
    `${place.operation} failed: the index read replied ${typeof reply}, not an array`,
    {
      entity: place.entity,
      store: STORE,
      hint: 'the server is not Redis 7 (or a proxy changed the reply): lifespan needs Redis 7.0 or later',
    },
  );
}
