import { call, type CallPlace, type RedisClientLike } from './gateway';
import { BUILT_MEMBER } from './index-marker';
import { issuedElsewhere, runIdOf, stamped } from './cursor-origin';
import { carriedOf, cutAt, laterIn, memberDigest, type IndexPosition } from './index-position';
import type { StoredRecord } from './codec';
import type { IndexRead, IndexScan, IndexStep } from './index-walk-types';

/**
 * The index walk of a findPage on one server with no filter, so every value read is handed out:
 * ZSCAN and MGET sent by the client, no script. A script gains nothing here and costs the server
 * its Lua: every member of every ZSCAN reply (and its score) made a Lua string, then the members
 * written back into the script's reply, about a quarter of the walk's server time for pages of
 * 1,000 (docs/performance.md, "Redis pages"). The walk's rules are the script's (index-scan.ts): the
 * step's cursor, its members already handed out and those carried from a step at cursor 0
 * (IndexPosition) are skipped, the built member is no record, a member whose key is gone (MGET
 * nil: expired, deleted, or not a string, https://redis.io/docs/latest/commands/mget/) is left out
 * whatever its score, and a step holding more than the page still lacks is cut where it is full.
 *
 * The index counts as lost, as in the script, when its built member is gone, and that is asked
 * where it matters: when the walk ends (ZSCAN's cursor back at 0), the ZSCAN that ended it must
 * have seen the built member, or a ZSCORE sent with its MGET must find it. A lost index ends the
 * walk there: a ZSCAN of a key that is gone returns nothing and cursor 0, and one recreated since
 * by later writes (without the built member) is walked to its end, where it is found out. Either
 * way the walk is not taken as complete: it starts over on the index built again (pages.ts), as
 * it does when the script finds the index lost, and records already handed out may come again.
 * Mid-walk no check is needed: a page of an index lost meanwhile is still a page of records.
 * A step's MGETs go out with the next step's ZSCAN when the page cannot be full without it, so
 * a page of 1,000 costs the round trips of SCAN + MGET plus one.
 */

/** ZSCAN steps one call takes at most (as the script: a sparse index does not hold a call forever). */
const MAX_STEPS = 64;

/**
 * About how many members the step a page is cut in holds (countFor): the members of it handed out
 * go into the cursor, and the next page's first ZSCAN returns them again (skipped), so fewer than
 * the script's STEP_COUNT: pages of 1,000 cost two ZSCANs (COUNT 975, then about 25).
 */
export const TAIL_COUNT = 25;

/**
 * ZSCAN's COUNT for a page that lacks `lack` records: all but the last TAIL_COUNT of them in one
 * step, then steps of what is left, so the step a page is cut in holds about TAIL_COUNT members.
 * ZSCAN returns about COUNT members of a hash-table set, a small (listpack) set whole
 * (https://redis.io/docs/latest/commands/scan/).
 */
function countFor(lack: number): string {
  return String(lack > 2 * TAIL_COUNT ? lack - TAIL_COUNT : Math.max(10, lack));
}

/**
 * Keys per MGET. A step's values are read by MGETs of MGET_CHUNK keys sent together, so the client
 * decodes and parses one chunk's values while the server looks up the next ones, instead of
 * each waiting on the other for the whole step.
 */
const MGET_CHUNK = 250;

/** The MGETs of `keys`, MGET_CHUNK at a time, sent at once; each awaited in turn (or dropped). */
function mgets(
  client: RedisClientLike,
  keys: readonly string[],
  place: CallPlace,
): Array<Promise<Array<string | null>>> {
  const chunks: Array<Promise<Array<string | null>>> = [];
  for (let at = 0; at < keys.length; at += MGET_CHUNK) {
    const chunk = call<Array<string | null>>(client, ['MGET', ...keys.slice(at, at + MGET_CHUNK)], place);
    // Not an unhandled rejection when an earlier chunk fails first or the page is full before it.
    chunk.catch(() => undefined);
    chunks.push(chunk);
  }
  return chunks;
}

/**
 * The members of a step less those handed out already (their digests in `skip` and `carried`).
 * Each digest stands for one member, and one ZSCAN reply holds a member once (a member may come
 * again in a later step, never twice in one: Redis pauses rehashing while a SCAN call walks the
 * table), so once every digest has been met the rest of the step is taken as it is. The first
 * step of a resumed page, about 975 members, costs the SHA-1 of the few dozen members up to the
 * last one handed out instead of one per member (about a tenth of the client's work for a page of
 * 1,000). Should a reply hold a member twice after all, the second would be handed out again,
 * which a walk allows (a record may repeat).
 */
function unhanded(
  members: readonly string[],
  head: string,
  skip: readonly string[],
  carried: readonly string[],
): readonly string[] {
  const left = new Set([...skip, ...carried]);
  const out: string[] = [];
  let i = 0;
  for (; i < members.length && left.size > 0; i++) {
    const member = members[i] as string;
    if (!left.delete(memberDigest(member.slice(head.length)))) out.push(member);
  }
  for (; i < members.length; i++) out.push(members[i] as string);
  return out;
}

interface Step {
  readonly next: string;
  readonly members: readonly string[];
  /** The reply held the built member: the index was complete when this step was taken. */
  readonly built: boolean;
}

/** The walk from `start` in `index` until `want` values are read, the index ends or MAX_STEPS are taken. */
export async function serverIndexScan(
  client: RedisClientLike,
  index: string,
  from: IndexPosition,
  query: {
    readonly want: number;
    readonly head: string;
    /** Parses a value as its chunk arrives, while the server still reads the next chunks. */
    readonly parse?: ((key: string, text: string) => StoredRecord) | undefined;
  },
  place: CallPlace,
): Promise<IndexScan> {
  const zscan = async (cursor: string, lack: number): Promise<Step> => {
    const args = ['ZSCAN', index, cursor, 'COUNT', countFor(lack)];
    const [next, pairs] = await call<[string, string[]]>(client, args, place);
    const members: string[] = [];
    let built = false;
    for (let i = 0; i < pairs.length; i += 2) {
      const member = pairs[i] as string;
      if (member === BUILT_MEMBER) built = true;
      else members.push(member);
    }
    return { next: String(next), members, built };
  };
  /** Whether the index still holds its built member: asked (ZSCORE) only of a step that ends the walk without having seen it. */
  const intact = async (step: Step) =>
    step.next !== '0' ||
    step.built ||
    (await call<string | null>(client, ['ZSCORE', index, BUILT_MEMBER], place)) !== null;
  // Which process serves the walk (cursor-origin.ts): asked with the first ZSCAN, whose reply it
  // precedes. A position another process issued starts its index again at cursor 0.
  // A failed INFO leaves the origin unknown (''), as the script's redis.pcall does.
  const info = call<string>(client, ['INFO', 'server'], place).catch(() => '');
  let start = from;
  let first: Promise<Step> | undefined = zscan(start.c, query.want);
  first.catch(() => undefined);
  const own = runIdOf(await info);
  if (issuedElsewhere(start.o, own)) {
    start = { z: start.z, c: '0', s: [] };
    first = undefined;
  }
  const done = (steps: IndexStep[], next: IndexPosition | undefined): IndexScan => ({
    lost: false,
    ...stamped({ steps, next }, own),
  });
  // Digests of members (memberDigest). At cursor 0 the step's members are carried (skipped in
  // every step of the index until it ends).
  const carried = carriedOf(start);
  let skip: readonly string[] = start.c === '0' ? [] : start.s;
  const steps: IndexStep[] = [];
  let cursor = start.c;
  let got = 0;
  let pending: Promise<Step> | undefined = first;
  for (let taken = 0; taken < MAX_STEPS; taken++) {
    const step: Step = await (pending ?? zscan(cursor, query.want - got));
    pending = undefined;
    const at = taken === 0 ? start : laterIn(start, cursor);
    const todo =
      skip.length === 0 && carried.length === 0 ? step.members : unhanded(step.members, query.head, skip, carried);
    // Sent with this step's MGET when the page stays short even if every member is still there.
    if (step.next !== '0' && got + todo.length < query.want) {
      pending = zscan(step.next, query.want - got - todo.length);
      // Awaited (and its failure met) by the next turn; not an unhandled rejection if this turn throws first.
      pending.catch(() => undefined);
    }
    const chunks = mgets(client, todo, place);
    // Asked with the MGETs of a step that should end the walk; a step the page is cut in does not end it.
    const ends = todo.length <= query.want - got;
    const whole = ends ? intact(step) : true;
    // Met below; not an unhandled rejection if a chunk (or a value's parse) fails first.
    if (whole !== true) whole.catch(() => undefined);
    const reads: IndexRead[] = [];
    let i = 0;
    for (const chunk of chunks) {
      if (got === query.want) break;
      const texts = await chunk;
      for (let j = 0; j < texts.length && got < query.want; j++, i++) {
        const text = texts[j];
        if (typeof text !== 'string') continue;
        const key = todo[i] as string;
        reads.push(query.parse === undefined ? { key, text } : { key, text, stored: query.parse(key, text) });
        got += 1;
      }
    }
    if (!(await whole)) return { lost: true };
    steps.push({ at, reads });
    if (i < todo.length) {
      // Full inside the step: resume at its cursor, past the members it handed out.
      return done(
        steps,
        cutAt(
          at,
          reads.map((r) => r.key.slice(query.head.length)),
        ),
      );
    }
    if (step.next === '0') return ends || (await intact(step)) ? done(steps, undefined) : { lost: true };
    cursor = step.next;
    skip = [];
    if (got === query.want) break;
  }
  // The speculative ZSCAN of a call that stops here is dropped (its reply is read and ignored).
  return done(steps, laterIn(start, cursor));
}
