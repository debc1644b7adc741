import type { RedisClientLike } from './gateway';
import { call, type CallPlace } from './gateway';
import { SCAN_COUNT } from './semantics';

/** What a walk cost: SCAN calls sent, and whether it reached the end of the keyspace. */
export interface ScanWalk {
  readonly calls: number;
  readonly complete: boolean;
}

/**
 * Walks every key matching `pattern` with SCAN (the whole keyspace, COUNT per step) and hands each
 * step's distinct new keys to `visit`, which returns false to stop. SCAN may return a key twice;
 * a key added or removed during the walk may or may not be seen (Redis's SCAN guarantee).
 * `maxCalls` bounds the walk itself: MATCH filters after walking, so a walk over keys that do
 * not match costs as much as one over keys that do.
 */
export async function scanKeys(
  client: RedisClientLike,
  pattern: string,
  place: CallPlace,
  visit: (keys: string[]) => Promise<boolean>,
  maxCalls = Number.POSITIVE_INFINITY,
): Promise<ScanWalk> {
  const seen = new Set<string>();
  let cursor = '0';
  let calls = 0;
  do {
    if (calls >= maxCalls) return { calls, complete: false };
    calls += 1;
    const [next, found] = await call<[string, string[]]>(
      client,
      ['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(SCAN_COUNT), 'TYPE', 'string'],
      place,
    );
    cursor = next;
    const fresh = found.filter((k) => !seen.has(k));
    for (const k of fresh) seen.add(k);
    if (fresh.length > 0 && !(await visit(fresh))) return { calls, complete: cursor === '0' };
  } while (cursor !== '0');
  return { calls, complete: true };
}
