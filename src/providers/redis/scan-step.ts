import { call, type CallPlace, type RedisClientLike } from './gateway';

/**
 * Where a walk over the keyspace stands between two SCAN calls: which of the walk's targets (the
 * index into `walkTargets(client)`: each primary of a cluster, else the one server) and that
 * target's own SCAN cursor ('0' before its first call). Plain data, so a page cursor can carry it.
 */
export interface WalkPosition {
  readonly node: number;
  readonly cursor: string;
}

/** The first step of every walk: the first target, SCAN cursor 0. */
export const WALK_START: WalkPosition = { node: 0, cursor: '0' };

/** One SCAN call's keys, and where the walk goes on (undefined: every target walked to its end). */
export interface WalkStep {
  /** The keys this call returned; SCAN may return a key again in a later step. */
  readonly keys: string[];
  readonly next: WalkPosition | undefined;
}

export interface StepQuery {
  /** The MATCH pattern (filtered by the server after walking). */
  readonly pattern: string;
  /** SCAN's COUNT: a hint of how many keys of the database one call walks. */
  readonly count: number;
}

/**
 * Exactly one SCAN call (MATCH, COUNT, TYPE string) at `from` on its target: the step a resumable
 * walk (findPage, deleteMany) takes. When the target's cursor comes back to '0' the next position
 * is the next target's start, so a walk over a cluster visits each primary in turn. A position
 * past the last target (the primaries became fewer between two pages) has nothing left: no call.
 */
export async function scanStep(
  targets: readonly RedisClientLike[],
  from: WalkPosition,
  query: StepQuery,
  place: CallPlace,
): Promise<WalkStep> {
  const target = targets[from.node];
  if (target === undefined) return { keys: [], next: undefined };
  const args = ['SCAN', from.cursor, 'MATCH', query.pattern, 'COUNT', String(query.count), 'TYPE', 'string'];
  const [cursor, keys] = await call<[string, string[]]>(target, args, place);
  if (cursor !== '0') return { keys, next: { node: from.node, cursor } };
  return { keys, next: from.node + 1 < targets.length ? { node: from.node + 1, cursor: '0' } : undefined };
}

/**
 * A position read back from a caller's page cursor, or undefined when it is not one (the caller
 * answers INVALID_CURSOR in its own words). The node index is bounded as a cluster's primaries
 * are (16384 slots at most); SCAN cursors are unsigned 64-bit integers.
 */
export function walkPositionOf(raw: unknown): WalkPosition | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { node, cursor } = raw as { node?: unknown; cursor?: unknown };
  if (typeof node !== 'number' || !Number.isInteger(node) || node < 0 || node >= 16384) return undefined;
  if (typeof cursor !== 'string' || !/^\d{1,20}$/.test(cursor)) return undefined;
  return { node, cursor };
}
