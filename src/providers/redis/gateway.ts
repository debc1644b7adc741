import { LifespanError, StoreError } from '../../errors';
import { STORE } from './semantics';

/**
 * The one method lifespan calls on the caller's client: node-redis 5/6 `client.sendCommand(args)`
 * (a `RedisClientType`; lifespan never connects or closes it). Raw commands keep lifespan on the
 * server's own vocabulary (SET … NX EX, KEEPTTL, EXPIRE … GT) whatever the driver's helper names.
 */
export interface RedisClientLike {
  sendCommand(args: readonly string[]): Promise<unknown>;
}

/** A node the cluster client names: what `nodeClient(node)` takes. */
export interface RedisClusterNodeLike {
  readonly address: string;
}

/**
 * What lifespan uses of a node-redis 5/6 cluster client (`await createCluster({ rootNodes }).connect()`):
 * `sendCommand(firstKey, isReadonly, args)` for every keyed command (the driver follows MOVED/ASK
 * and refreshes its slot map after a failover), and each primary's own client for SCAN and WAIT.
 */
export interface RedisClusterLike {
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
  readonly masters: readonly RedisClusterNodeLike[];
  readonly slots: ReadonlyArray<{ readonly master: RedisClusterNodeLike } | undefined>;
  nodeClient(node: RedisClusterNodeLike): Promise<RedisClientLike>;
}

/** Where a failing call happened, for the error that wraps it. */
export interface CallPlace {
  readonly entity?: string | undefined;
  readonly operation: string;
}

export async function call<R>(client: RedisClientLike, args: readonly string[], place: CallPlace): Promise<R> {
  try {
    return (await client.sendCommand(args)) as R;
  } catch (error) {
    throw operationFailed(error, place);
  }
}

export function operationFailed(error: unknown, place: CallPlace): unknown {
  if (error instanceof LifespanError) return error;
  return new StoreError('STORE_OPERATION_FAILED', `${place.operation} failed: ${serverMessage(error)}`, {
    entity: place.entity,
    store: STORE,
    cause: error,
    hint: CLUSTER_CHANGING.test(serverMessage(error))
      ? 'a Redis Cluster failover or resharding is under way: retry once the cluster is ok again (a write whose reply was lost may have been applied: upsert is safe to repeat, a repeated insert can meet its own write as STORE_DUPLICATE_KEY)'
      : 'check the connection, the user\u2019s ACL permissions and maxmemory (a full server refuses writes)',
  });
}

/**
 * Errors of a cluster whose topology is changing (node-redis's and the server's words). A script
 * that reads a key of a slot being migrated away from its node is refused with "Script attempted
 * to access a non local key in a cluster node" (Redis 7 scripts get no MOVED/ASK redirection);
 * the index reads meet it after a slot moved too, and first make the client's slot map current
 * and run once more (reshard.ts): the error reaches the caller when that did not help.
 */
const CLUSTER_CHANGING =
  /^(CLUSTERDOWN|TRYAGAIN|MOVED|ASK)\b|Script attempted to access a non local key|Disconnects client|Socket closed unexpectedly|MaxCommandRedirections/;

export function serverMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
