import { LifespanError, StoreError } from '../../errors';
import { shapeOf, writes } from './commands';
import type { RedisClientLike } from './gateway';
import type { RedisNodes } from './nodes';
import { STORE } from './semantics';
import { hashSlot } from './slots';

/** RedisStore's `waitForReplicas`: after each write, WAIT until this many replicas hold it. */
export interface ReplicaAcks {
  readonly replicas: number;
  readonly timeoutMs: number;
}

/**
 * What every repository, unit of work and plan sends through: `sendCommand(args)` as on one
 * server, whatever is behind it. On Redis Cluster it routes each command by its first key, splits
 * MGET/DEL/EXISTS/UNLINK into one command per slot (the server refuses keys of several slots in
 * one command) and refuses a script whose keys span slots before sending it. With `acks`, each
 * write is followed by WAIT on the same connection, and a write too few replicas acknowledged
 * fails with REDIS_NOT_REPLICATED.
 */
export class RedisRouter implements RedisClientLike {
  constructor(
    readonly nodes: RedisNodes,
    private readonly acks?: ReplicaAcks,
  ) {}

  get cluster(): boolean {
    return this.nodes.cluster;
  }

  get waitsForReplicas(): boolean {
    return this.acks !== undefined;
  }

  async sendCommand(args: readonly string[]): Promise<unknown> {
    const shape = shapeOf(args);
    switch (shape.kind) {
      case 'keyless':
        return this.sendOne(undefined, args);
      case 'keyed':
        return this.sendOne(shape.keys[0], args);
      case 'script':
        if (this.nodes.cluster) refuseCrossSlot(shape.keys);
        return this.sendOne(shape.keys[0], args);
      case 'multi-key':
        return this.nodes.cluster ? this.splitBySlot(args, shape.keys, shape.merge) : this.sendOne(shape.keys[0], args);
      default: {
        const never: never = shape;
        return never;
      }
    }
  }

  private async splitBySlot(args: readonly string[], keys: readonly string[], merge: 'list' | 'sum'): Promise<unknown> {
    const groups = new Map<number, number[]>();
    keys.forEach((key, i) => {
      const slot = hashSlot(key);
      groups.set(slot, [...(groups.get(slot) ?? []), i]);
    });
    if (groups.size <= 1) return this.sendOne(keys[0], args);
    const name = args[0] as string;
    const parts = [...groups.values()];
    // Sent together: node-redis pipelines the commands of one tick to each node.
    const replies = await Promise.all(
      parts.map((indexes) =>
        this.sendOne(keys[indexes[0] as number], [name, ...indexes.map((i) => keys[i] as string)]),
      ),
    );
    if (merge === 'sum') return replies.reduce<number>((sum, r) => sum + Number(r), 0);
    const merged: unknown[] = new Array<unknown>(keys.length);
    parts.forEach((indexes, p) => {
      const reply = replies[p] as unknown[];
      indexes.forEach((at, j) => {
        merged[at] = reply[j];
      });
    });
    return merged;
  }

  private async sendOne(key: string | undefined, args: readonly string[]): Promise<unknown> {
    const reply = await this.nodes.send(key, args);
    if (this.acks && writes(args)) await this.awaitReplicas(key);
    return reply;
  }

  private async awaitReplicas(key: string | undefined): Promise<void> {
    const { replicas, timeoutMs } = this.acks as ReplicaAcks;
    const acked = Number(await this.nodes.sendOnConnectionOf(key, ['WAIT', String(replicas), String(timeoutMs)]));
    if (acked >= replicas) return;
    throw new StoreError(
      'REDIS_NOT_REPLICATED',
      `a write${key === undefined ? '' : ` to '${key}'`} reached the primary but ${acked} of ${replicas} replica(s) acknowledged it within ${timeoutMs} ms: it is applied there and may be lost if that primary fails now`,
      {
        store: STORE,
        hint: 'check the replicas (INFO replication: master_link_status), or lower waitForReplicas.replicas / raise timeoutMs',
      },
    );
  }
}

/** A script's keys must share a slot on Redis Cluster: refused here, before anything is sent. */
function refuseCrossSlot(keys: readonly string[]): void {
  // Every write script comes here (its record and index keys): the common case costs no Set.
  if (keys.length <= 1) return;
  const first = hashSlot(keys[0] as string);
  if (keys.every((key, i) => i === 0 || hashSlot(key) === first)) return;
  const slots = [...new Set(keys.map(hashSlot))];
  throw new LifespanError(
    'REDIS_CROSS_SLOT',
    `one script would touch keys of ${slots.length} Redis Cluster hash slots (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}); nothing was sent`,
    {
      store: STORE,
      hint: 'keep the keys of one operation in one partition (the same @PartitionKey values share a slot)',
    },
  );
}
