import type { RedisClientLike } from './gateway';
import { call, type CallPlace } from './gateway';
import { SCAN_COUNT } from './semantics';

/**
 * Walks every key matching `pattern` with SCAN (the whole keyspace, COUNT per step) and hands each
 * step's distinct new keys to `visit`, which returns false to stop. SCAN may return a key twice;
 * a key added or removed during the walk may or may not be seen (Redis's SCAN guarantee).
 */
export async function scanKeys(
  client: RedisClientLike,
  pattern: string,
  place: CallPlace,
  visit: (keys: string[]) => Promise<boolean>,
): Promise<void> {
  const seen = new Set<string>();
  let cursor = '0';
  do {
    const [next, found] = await call<[string, string[]]>(
      client,
      ['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(SCAN_COUNT), 'TYPE', 'string'],
      place,
    );
    cursor = next;
    const fresh = found.filter((k) => !seen.has(k));
    for (const k of fresh) seen.add(k);
    if (fresh.length > 0 && !(await visit(fresh))) return;
  } while (cursor !== '0');
}
