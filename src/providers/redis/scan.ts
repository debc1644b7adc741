import type { RedisClientLike } from './gateway';
import { call, type CallPlace } from './gateway';
import { RedisRouter } from './router';
import { SCAN_COUNT } from './semantics';

/** What a walk cost: SCAN calls sent, over how many primaries, and whether it reached the end of the keyspace. */
export interface ScanWalk {
  readonly calls: number;
  readonly complete: boolean;
  /** Primaries walked: 1 on one server, every primary on Redis Cluster (SCAN sees one node's keys only). */
  readonly nodes: number;
}

/** The clients a walk over the whole keyspace visits: each primary of a cluster, else the client itself. */
export async function walkTargets(client: RedisClientLike): Promise<RedisClientLike[]> {
  return client instanceof RedisRouter ? client.nodes.primaries() : [client];
}

/** "on 3 primaries" on Redis Cluster, "" on one server: for cost lines. */
export function walkedNodes(walk: ScanWalk, client: RedisClientLike): string {
  return client instanceof RedisRouter && client.cluster ? ` on ${walk.nodes} cluster primaries` : '';
}

/**
 * Walks every key matching `pattern` with SCAN (the whole keyspace, COUNT per step; on Redis
 * Cluster each primary in turn, as SCAN walks one node's slots only) and hands each step's
 * distinct new keys to `visit`, which returns false to stop. SCAN may return a key twice; a key
 * added or removed during the walk may or may not be seen (Redis's SCAN guarantee; on a cluster
 * also a key whose slot moves to another primary during the walk). `maxCalls` bounds the walk
 * itself (over all primaries): MATCH filters after walking, so a walk over keys that do not match
 * costs as much as one over keys that do.
 */
export async function scanKeys(
  client: RedisClientLike,
  pattern: string,
  place: CallPlace,
  visit: (keys: string[]) => Promise<boolean>,
  maxCalls = Number.POSITIVE_INFINITY,
): Promise<ScanWalk> {
  const seen = new Set<string>();
  const targets = await walkTargets(client);
  let calls = 0;
  for (const [i, node] of targets.entries()) {
    let cursor = '0';
    do {
      if (calls >= maxCalls) return { calls, complete: false, nodes: i + 1 };
      calls += 1;
      const [next, found] = await call<[string, string[]]>(
        node,
        ['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(SCAN_COUNT), 'TYPE', 'string'],
        place,
      );
      cursor = next;
      const fresh = found.filter((k) => !seen.has(k));
      for (const k of fresh) seen.add(k);
      if (fresh.length > 0 && !(await visit(fresh))) {
        return { calls, complete: cursor === '0' && i === targets.length - 1, nodes: i + 1 };
      }
    } while (cursor !== '0');
  }
  return { calls, complete: true, nodes: targets.length };
}
