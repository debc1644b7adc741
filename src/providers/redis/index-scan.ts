import { StoreError } from '../../errors';
import { serverIndexKey, slotIndexKey, type IndexLayout } from './collection-index';
import type { StoredRecord } from './codec';
import type { KeyspaceMapping } from './compile';
import { call, type CallPlace, type RedisClientLike } from './gateway';
import { PAGE } from './index-reads';
import { RedisRouter } from './router';
import { READ_VALUE_LUA } from './read-value-lua';
import { runScriptFor, script } from './scripts';
import { STORE } from './semantics';
import { carriedOf, cutAt, laterIn, type IndexPosition } from './index-position';
import { serverIndexScan } from './server-index-walk';
import { ORIGIN_LUA, originReply, stamped } from './cursor-origin';
import { SLOT_COUNT } from './slots';
import type { IndexRead, IndexScan, IndexStep } from './index-walk-types';

export type { IndexRead, IndexScan, IndexStep } from './index-walk-types';

/**
 * The resumable walk of the collection index that findPage / iterate / deleteMany take (pages.ts):
 * ZSCAN over the index sorted set (on a cluster, over the per-slot indexes in slot order), each
 * member's value read in the same script (for findPage on one server: by one MGET after it, and
 * with no script at all when the page has no filter: server-index-walk.ts). ZSCAN,
 * not a walk by score: its cursor is a position in the sorted set's hash table, so a member whose
 * score changes (an upsert that moves the expiry, a setTtl) keeps its place and the walk neither
 * loses it nor meets it again at the end, as a walk in score order would (a loop that upserts
 * every record it reads would never end). ZSCAN keeps SCAN's guarantee on the set (https://redis.io/docs/latest/commands/scan/): a member present for
 * the whole walk is returned, one may come twice, one added or removed meanwhile may or may not.
 */

/** ZSCAN calls one script makes at most (besides one EXISTS per absent per-slot index). */
const MAX_STEPS_PER_SCRIPT = 64;

/** Per-slot index keys one script names at most (on a cluster: one EXISTS each when absent). */
export const MAX_SLOTS_PER_SCRIPT = 2048;

/** ZSCAN's COUNT in the index walk: small, so the step a page is cut in (its members go into the cursor) is small. */
export const STEP_COUNT = 100;

/**
 * ARGV: k, the k index keys in walk order, then the ZSCAN cursor in the first one, how many values
 * to read at most (`want`), ZSCAN's COUNT, the mode ('keys': the member only; 'values': GET;
 * 'both': GET and PEXPIRETIME, for deleteMany), '1' to first check that the first index holds its built member (one server:
 * index-marker.ts; { -1 } when it does not), a MATCH pattern or '', the length in bytes of the
 * collection's key prefix, m, then the digests (memberDigest) of m members skipped in every step
 * of the first index until its cursor comes back to 0 (handed out from a step at cursor 0: see
 * IndexPosition), then those of the members of the first step already handed out (not read again),
 * then the run_id that issued the first cursor ('' for none; another: start again, cursor-origin.ts).
 * A member's score is not taken as proof of expiry: an expiry changed outside lifespan (EXPIRE /
 * PERSIST by hand) leaves it behind until a write re-scores it, so a key that is gone is left out
 * by its read (GET nil; mode 'keys': EXISTS for a member past its score, the MGET after the script
 * for the rest); GET of a key that is not a string is read as "not a record" (WRONGTYPE), any
 * other error fails the script (as index-reads.ts). Once `want` values are read the script stops,
 * inside a step when that step holds more: it is then "cut", and the walk resumes at that step's
 * cursor, skipping the members it returned from it.
 * Reply: now, the position after the script (index number, > k: done; its cursor), cut (1/0), the
 * script's run_id and 1 when it started the first index again (cursor-origin.ts), then
 * per ZSCAN step its index number, its cursor before the step, its entry count and the entries
 * (key [, value [, expiry]]).
 */
const INDEX_SCAN = script(`#!lua flags=no-writes,allow-cross-slot-keys
${READ_VALUE_LUA}
${ORIGIN_LUA}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local k = tonumber(ARGV[1])
local cursor, want, count, mode = ARGV[k + 2], tonumber(ARGV[k + 3]), ARGV[k + 4], ARGV[k + 5]
local match = ARGV[k + 7]
if ARGV[k + 6] == '1' and not redis.call('ZSCORE', ARGV[2], '') then return { -1 } end
local carried, skip = {}, {}
local prefix_len, m = tonumber(ARGV[k + 8]), tonumber(ARGV[k + 9])
for i = k + 10, k + 9 + m do carried[ARGV[i]] = true end
for i = k + 10 + m, #ARGV - 1 do skip[ARGV[i]] = true end
local origin, moved = lifespan_origin(ARGV[#ARGV])
if moved then cursor, m, carried, skip = '0', 0, {}, {} end
local out = { now, 0, '0', 0, origin, moved and 1 or 0 }
local pos, got, steps, cut = 1, 0, 0, 0
while pos <= k and got < want and steps < ${MAX_STEPS_PER_SCRIPT} do
  local idx = ARGV[pos + 1]
  if cursor == '0' and redis.call('EXISTS', idx) == 0 then
    pos, skip = pos + 1, {}
  else
    local r
    if match == '' then
      r = redis.call('ZSCAN', idx, cursor, 'COUNT', count)
    else
      r = redis.call('ZSCAN', idx, cursor, 'MATCH', match, 'COUNT', count)
    end
    steps = steps + 1
    local head = #out
    out[head + 1], out[head + 2], out[head + 3] = pos, cursor, 0
    local n = 0
    local members = r[2]
    for i = 1, #members, 2 do
      if got + n == want then
        cut = 1
        break
      end
      local key = members[i]
      local handed = false
      if key ~= '' and (next(skip) ~= nil or (pos == 1 and m > 0)) then
        local d = string.sub(redis.sha1hex(string.sub(key, prefix_len + 1)), 1, 16)
        handed = skip[d] or (pos == 1 and carried[d])
      end
      if key == '' or handed then
        -- the built member, or handed out already
      elseif mode == 'keys' then
        -- A member past its score is handed out while its key is there (its expiry moved by hand).
        local score = tonumber(members[i + 1])
        if score == nil or score >= now or redis.call('EXISTS', key) == 1 then
          out[#out + 1] = key
          n = n + 1
        end
      else
        local v, err = lifespan_read_value(key)
        if err then return redis.error_reply(err) end
        if v then
          out[#out + 1] = key
          out[#out + 1] = v
          if mode == 'both' then out[#out + 1] = redis.call('PEXPIRETIME', key) end
          n = n + 1
        end
      end
    end
    out[head + 3] = n
    got = got + n
    if cut == 1 then break end
    skip = {}
    cursor = r[1]
    if cursor == '0' then pos = pos + 1 end
  end
end
out[2], out[3], out[4] = pos, cursor, cut
return out
`);

export interface ScanQuery {
  /**
   * How many values the script reads at most (it stops inside the step that reaches it): what the
   * page lacks, or at least STEP_COUNT when the caller filters what the script hands out.
   */
  readonly want: number;
  readonly mode: 'values' | 'both';
  /** A ZSCAN MATCH pattern (one partition's keys), or '' for every member. */
  readonly match: string;
  /** On a cluster, the one slot to walk (a filter that gives the partition); undefined: every slot. */
  readonly slot?: number | undefined;
  /** What every member starts with (the collection's key prefix): positions hold the rest of their skipped members. */
  readonly head: string;
  /** The caller hands out every value read (its filter is none, or what `match` selects): on one server no script is needed. */
  readonly exact: boolean;
  /** How the caller parses a value; a walk with no script parses each as it arrives (server-index-walk.ts). */
  readonly parse?: ((key: string, text: string) => StoredRecord) | undefined;
}

/** What the script reads per member: its key only (the values follow by MGET), its value, or value and expiry. */
type ScriptMode = 'keys' | 'values' | 'both';
const WIDTH: Readonly<Record<ScriptMode, number>> = { keys: 1, values: 2, both: 3 };

/** The index keys one script walks from `from`, on the client that holds them, and their slots. */
interface Run {
  readonly client: RedisClientLike;
  readonly slots: readonly number[];
  readonly keys: readonly string[];
}

/**
 * On one server its one index. On a cluster the slots from `from.z` on that the same primary
 * serves without a gap (at most MAX_SLOTS_PER_SCRIPT), so the walk goes through the slots in
 * order whichever primary serves them, and a page resumed after a resharding asks the slot's
 * owner of the moment. A slot no primary serves (a cluster that is down) is left out, as the
 * index reads leave it out (index-reads.ts). Undefined: no slot left.
 */
async function runFrom(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  from: IndexPosition,
  only: number | undefined,
): Promise<Run | undefined> {
  if (!layout.cluster || !(client instanceof RedisRouter)) {
    return from.z === 0 ? { client, slots: [0], keys: [serverIndexKey(layout.prefix, mapping.collection)] } : undefined;
  }
  const owners = await client.nodes.slotOwners();
  const ownerOf = new Int32Array(SLOT_COUNT).fill(-1);
  owners.forEach((o, i) => o.slots.forEach((s) => (ownerOf[s] = i)));
  const last = only ?? SLOT_COUNT - 1;
  let first = Math.max(from.z, only ?? 0);
  while (first <= last && ownerOf[first] === -1) first += 1;
  if (first > last) return undefined;
  const owner = ownerOf[first] as number;
  const slots: number[] = [];
  for (let s = first; s <= last && ownerOf[s] === owner && slots.length < MAX_SLOTS_PER_SCRIPT; s++) slots.push(s);
  const keys = slots.map((s) => slotIndexKey(layout.prefix, mapping.collection, s));
  return { client: (owners[owner] as { client: RedisClientLike }).client, slots, keys };
}

/** One script of the walk from `from` (a position whose slot is past the walk's end: nothing, no call). */
export async function indexScan(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  from: IndexPosition,
  query: ScanQuery,
  place: CallPlace,
): Promise<IndexScan> {
  const run = await runFrom(client, layout, mapping, from, query.slot);
  if (run === undefined) return { lost: false, steps: [], next: undefined };
  // The cursor belongs to the slot it was cut in; a walk moved on to a later slot starts that one afresh.
  const start = run.slots[0] === from.z ? from : { z: run.slots[0] as number, c: '0', s: [] };
  const want = Math.min(PAGE, Math.max(1, query.want));
  if (!layout.cluster && query.mode === 'values' && query.exact && query.match === '') {
    const walk = { want, head: query.head, parse: query.parse };
    return serverIndexScan(run.client, run.keys[0] as string, start, walk, place);
  }
  const count = String(Math.min(STEP_COUNT, Math.max(10, want)));
  const check = layout.cluster ? '0' : '1';
  // One server: the script hands out members and one MGET reads their values, which costs the
  // server less than a GET per member from Lua; a cluster's keys span slots, which MGET cannot.
  const mode: ScriptMode = query.mode === 'values' && !layout.cluster ? 'keys' : query.mode;
  const args = [String(run.keys.length), ...run.keys, start.c, String(want), count, mode, check, query.match];
  // At cursor 0 the step's members are carried (skipped in every step of the index), so not sent twice.
  const carried = carriedOf(start);
  const skipped = start.c === '0' ? [] : start.s;
  const skips = [String(Buffer.byteLength(query.head)), String(carried.length), ...carried, ...skipped];
  const issued = start.o ?? '';
  const reply = await runScriptFor<unknown>(run.client, INDEX_SCAN, [], [...args, ...skips, issued], place, true);
  if (Array.isArray(reply) && reply.length === 1 && Number(reply[0]) === -1) return { lost: true };
  if (!Array.isArray(reply) || reply.length < 6) throw unreadableReply(reply, place);
  const { origin, begun } = originReply(reply as unknown[], start);
  const walked = stamped(stepsOf(reply as unknown[], run, begun, query, mode, place), origin);
  if (mode !== 'keys') return { lost: false, ...walked };
  return { lost: false, steps: await withValues(run.client, walked.steps, place), next: walked.next };
}

/** The steps' values by one MGET; a key gone since the script (deleted, expired) is left out. */
async function withValues(client: RedisClientLike, steps: IndexStep[], place: CallPlace): Promise<IndexStep[]> {
  const keys = steps.flatMap((step) => step.reads.map((r) => r.key));
  if (keys.length === 0) return steps;
  const texts = await call<Array<string | null>>(client, ['MGET', ...keys], place);
  let i = 0;
  return steps.map((step) => {
    const reads: IndexRead[] = [];
    for (const { key } of step.reads) {
      const text = texts[i++];
      if (typeof text === 'string') reads.push({ key, text });
    }
    return { at: step.at, reads };
  });
}

/** The reply's steps, and the position after them (the next slot of the walk once the run is done). */
function stepsOf(
  reply: readonly unknown[],
  run: Run,
  start: IndexPosition,
  query: ScanQuery,
  mode: ScriptMode,
  place: CallPlace,
): { steps: IndexStep[]; next: IndexPosition | undefined } {
  const width = WIDTH[mode];
  const slotAt = (pos: unknown) => run.slots[Number(pos) - 1];
  const steps: IndexStep[] = [];
  let i = 6;
  while (i < reply.length) {
    const slot = slotAt(reply[i]);
    const n = Number(reply[i + 2]);
    if (slot === undefined || !Number.isSafeInteger(n) || i + 3 + n * width > reply.length) {
      throw unreadableReply(reply, place);
    }
    const c = String(reply[i + 1]);
    const at = slot !== start.z ? { z: slot, c, s: [] } : c === start.c ? start : laterIn(start, c);
    const reads: IndexRead[] = [];
    for (let e = i + 3; e < i + 3 + n * width; e += width) {
      const key = String(reply[e]);
      const text = width === 1 ? '' : String(reply[e + 1]);
      reads.push(width === 3 ? { key, text, expiresAt: String(reply[e + 2]) } : { key, text });
    }
    steps.push({ at, reads });
    i += 3 + n * width;
  }
  const last = steps[steps.length - 1];
  if (Number(reply[3]) === 1 && last !== undefined) {
    // Cut inside its last step: resume there, past the members it handed out.
    const rest = last.reads.map((r) => r.key.slice(query.head.length));
    return { steps, next: cutAt(last.at, rest) };
  }
  const pos = Number(reply[1]);
  // Still in the index it started in (pos 1): what the start carries goes on until its cursor is 0.
  if (pos === 1) return { steps, next: String(reply[2]) === start.c ? start : laterIn(start, String(reply[2])) };
  if (pos <= run.keys.length) return { steps, next: { z: slotAt(pos) as number, c: String(reply[2]), s: [] } };
  const runLast = run.slots[run.slots.length - 1] as number;
  return { steps, next: runLast < (query.slot ?? SLOT_COUNT - 1) ? { z: runLast + 1, c: '0', s: [] } : undefined };
}

function unreadableReply(reply: unknown, place: CallPlace): StoreError {
  return new StoreError(
    'STORE_OPERATION_FAILED',
    `${place.operation} failed: the index walk's reply was not understood`,
    {
      entity: place.entity,
      store: STORE,
      hint: `the server is not Redis 7 (or a proxy changed the reply: ${Array.isArray(reply) ? 'an array' : typeof reply}): lifespan needs Redis 7.0 or later`,
    },
  );
}
