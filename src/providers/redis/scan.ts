import type { CallPlace, RedisClientLike } from './gateway';
import { RedisRouter } from './router';
import { scanStep, WALK_START, type WalkPosition, type WalkStep } from './scan-step';
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
  const query = { pattern, count: SCAN_COUNT };
  let calls = 0;
  let at: WalkPosition | undefined = WALK_START;
  while (at !== undefined) {
    if (calls >= maxCalls) return { calls, complete: false, nodes: at.node + 1 };
    calls += 1;
    const step: WalkStep = await scanStep(targets, at, query, place);
    const fresh = step.keys.filter((k) => !seen.has(k));
    for (const k of fresh) seen.add(k);
    if (fresh.length > 0 && !(await visit(fresh))) {
      return { calls, complete: step.next === undefined, nodes: at.node + 1 };
    }
    at = step.next;
  }
  return { calls, complete: true, nodes: targets.length };
}
