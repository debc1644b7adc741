import { call, type CallPlace, type RedisClientLike } from './gateway';
import { BUILT_MEMBER } from './index-marker';
import { carriedOf, cutAt, laterIn, type IndexPosition } from './index-position';
import type { IndexRead, IndexScan, IndexStep } from './index-scan';

/**
 * The index walk of a findPage on one server whose filter the walk applies itself (none, or only
 * the partition, which ZSCAN MATCH selects), so every value read is handed out: ZSCAN and MGET
 * sent by the client, no script. A script gains nothing here and costs the server its Lua: every
 * member of every ZSCAN reply (and its score) made a Lua string, then the members written back
 * into the script's reply, about a third of the walk's server time for pages of 1,000
 * (docs/performance.md, "Redis pages"). The walk's rules are the script's (index-scan.ts): the
 * step's cursor, its members already handed out and those carried from a step at cursor 0
 * (IndexPosition) are skipped, the built member is no record, a member whose key is gone (MGET
 * nil: expired, deleted, or not a string, https://redis.io/docs/latest/commands/mget/) is left out
 * whatever its score, and a step holding more than the page still lacks is cut where it is full.
 *
 * The index counts as lost, as in the script, when its built member is gone: checked by a ZSCORE
 * sent right after each ZSCAN (in the same round trip), so an index lost before the ZSCAN is seen
 * lost, not read as empty. A step's MGET goes out with the next step's ZSCAN when the page cannot
 * be full without it, so a page of 1,000 costs the round trips of SCAN + MGET plus one.
 */

/** ZSCAN steps one call takes at most (as the script: a sparse index does not hold a call forever). */
const MAX_STEPS = 64;

/**
 * ZSCAN's COUNT for a page that lacks `lack` records: all but the last `tail` of them in one step,
 * then steps of what is left, so the step a page is cut in (its members handed out go into the
 * cursor) holds about `tail` members, as the script's steps of STEP_COUNT do. ZSCAN returns about
 * COUNT members of a hash-table set, more from a small (listpack) set, which comes whole
 * (https://redis.io/docs/latest/commands/scan/).
 */
function countFor(lack: number, tail: number): string {
  return String(lack > 2 * tail ? lack - tail : Math.max(10, lack));
}

interface Step {
  readonly next: string;
  readonly members: readonly string[];
}

/** The walk from `start` in `index` until `want` values are read, the index ends or MAX_STEPS are taken. */
export async function serverIndexScan(
  client: RedisClientLike,
  index: string,
  start: IndexPosition,
  query: { readonly want: number; readonly match: string; readonly head: string; readonly tail: number },
  place: CallPlace,
): Promise<IndexScan> {
  const full = (rests: readonly string[]) => new Set(rests.map((rest) => query.head + rest));
  // At cursor 0 the step's members are carried (skipped in every step of the index until it ends).
  const carried = full(carriedOf(start));
  let skip = start.c === '0' ? new Set<string>() : full(start.s);
  const zscan = (cursor: string, lack: number): Promise<Step | 'lost'> => {
    const match = query.match === '' ? [] : ['MATCH', query.match];
    const scan = call<[string, string[]]>(client, ['ZSCAN', index, cursor, ...match, 'COUNT', countFor(lack, query.tail)], place);
    const built = call<string | null>(client, ['ZSCORE', index, BUILT_MEMBER], place);
    return Promise.all([scan, built]).then(([[next, pairs], score]) => {
      if (score === null) return 'lost';
      const members: string[] = [];
      for (let i = 0; i < pairs.length; i += 2) members.push(pairs[i] as string);
      return { next: String(next), members };
    });
  };
  const steps: IndexStep[] = [];
  let cursor = start.c;
  let got = 0;
  let pending: Promise<Step | 'lost'> | undefined = zscan(cursor, query.want);
  for (let taken = 0; taken < MAX_STEPS; taken++) {
    const step: Step | 'lost' = await (pending ?? zscan(cursor, query.want - got));
    pending = undefined;
    if (step === 'lost') return { lost: true };
    const at = taken === 0 ? start : laterIn(start, cursor);
    const todo = step.members.filter((m) => m !== BUILT_MEMBER && !skip.has(m) && !carried.has(m));
    // Sent with this step's MGET when the page stays short even if every member is still there.
    if (step.next !== '0' && got + todo.length < query.want) {
      pending = zscan(step.next, query.want - got - todo.length);
      // Awaited (and its failure met) by the next turn; not an unhandled rejection if this turn throws first.
      pending.catch(() => undefined);
    }
    const texts = todo.length === 0 ? [] : await call<Array<string | null>>(client, ['MGET', ...todo], place);
    const reads: IndexRead[] = [];
    let i = 0;
    for (; i < todo.length && got < query.want; i++) {
      const text = texts[i];
      if (typeof text !== 'string') continue;
      reads.push({ key: todo[i] as string, text });
      got += 1;
    }
    steps.push({ at, reads });
    if (i < todo.length) {
      // Full inside the step: resume at its cursor, past the members it handed out.
      return { lost: false, steps, next: cutAt(at, reads.map((r) => r.key.slice(query.head.length))) };
    }
    if (step.next === '0') return { lost: false, steps, next: undefined };
    cursor = step.next;
    skip = new Set();
    if (got === query.want) break;
  }
  // The speculative ZSCAN of a call that stops here is dropped (its reply is read and ignored).
  return { lost: false, steps, next: laterIn(start, cursor) };
}
