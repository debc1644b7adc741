import { StoreError } from '../../errors';
import { operationFailed, type RedisClientLike, type RedisClusterLike, type RedisClusterNodeLike } from './gateway';
import { STORE } from './semantics';
import { hashSlot } from './slots';

/**
 * The servers behind a store, in the one shape the router needs: one node-redis client of one
 * server, or a node-redis cluster client (`createCluster`), whose MOVED/ASK handling and topology
 * refresh after a failover stay the driver's.
 */
export interface RedisNodes {
  readonly cluster: boolean;
  /** Sends one command to the primary of `key`'s slot (a key-less command: to one primary). */
  send(key: string | undefined, args: readonly string[]): Promise<unknown>;
  /** Sends a connection-level command (WAIT) on the connection that carried `key`'s writes. */
  sendOnConnectionOf(key: string | undefined, args: readonly string[]): Promise<unknown>;
  /** One client per primary: what a walk over the keyspace (SCAN) must visit. */
  primaries(): Promise<RedisClientLike[]>;
  /** `host:port` of each primary (for describe()), or [] when the client does not say. */
  addresses(): string[];
  /**
   * Each primary's client with the slots it serves, as the cluster client's slot map has them
   * (a read of per-slot collection indexes visits each primary once); one server: its client, no slots.
   */
  slotOwners(): Promise<SlotOwner[]>;
}

export interface SlotOwner {
  readonly client: RedisClientLike;
  readonly slots: readonly number[];
}

export function serverNodes(client: RedisClientLike): RedisNodes {
  return {
    cluster: false,
    send: (_key, args) => client.sendCommand(args),
    sendOnConnectionOf: (_key, args) => client.sendCommand(args),
    primaries: async () => [client],
    slotOwners: async () => [{ client, slots: [] }],
    addresses() {
      const socket = (client as { options?: { socket?: { host?: unknown; port?: unknown } } }).options?.socket;
      return typeof socket?.host === 'string' ? [`${socket.host}:${String(socket.port ?? 6379)}`] : [];
    },
  };
}

export function clusterNodes(cluster: RedisClusterLike): RedisNodes {
  // Every command goes to the slot's primary (isReadonly false), even with useReplicas: a replica
  // may not hold a write lifespan just made, and reads must see their own writes.
  const masters = () => {
    if (cluster.masters.length > 0) return cluster.masters;
    throw new StoreError('STORE_OPERATION_FAILED', 'the Redis Cluster client knows no primary node', {
      store: STORE,
      hint: 'connect the cluster client before opening the store: await createCluster({ rootNodes }).connect()',
    });
  };
  // The driver connects a node's client on first use: a node that cannot be reached fails as a store error.
  const nodeClient = async (node: RedisClusterNodeLike): Promise<RedisClientLike> => {
    try {
      return await cluster.nodeClient(node);
    } catch (error) {
      throw operationFailed(error, { operation: `connecting to the cluster node ${node.address}` });
    }
  };
  const anyPrimary = (): Promise<RedisClientLike> => nodeClient(masters()[0] as RedisClusterNodeLike);
  return {
    cluster: true,
    send: async (key, args) =>
      key === undefined ? (await anyPrimary()).sendCommand(args) : cluster.sendCommand(key, false, [...args]),
    async sendOnConnectionOf(key, args) {
      const shard = key === undefined ? undefined : cluster.slots[hashSlot(key)];
      const client = shard ? await nodeClient(shard.master) : await anyPrimary();
      return client.sendCommand(args);
    },
    primaries: () => Promise.all(masters().map((m) => nodeClient(m))),
    async slotOwners() {
      const byMaster = new Map<RedisClusterNodeLike, number[]>();
      cluster.slots.forEach((shard, slot) => {
        if (!shard) return;
        const slots = byMaster.get(shard.master);
        if (slots) slots.push(slot);
        else byMaster.set(shard.master, [slot]);
      });
      return Promise.all(
        [...byMaster.entries()].map(async ([master, slots]) => ({ client: await nodeClient(master), slots })),
      );
    },
    addresses: () => cluster.masters.map((m) => m.address),
  };
}
