/**
 * A client of the test bed that counts every command lifespan sends through it, by name (on a
 * cluster also those sent to one node's client, as walks and index scripts are). Other suites'
 * commands on the same servers do not count.
 */
import type { RedisClientLike, RedisClusterLike } from '../../src/providers/redis/gateway';
import type { OpenedStore } from '../harness/open-store';

export interface CommandSpy {
  readonly client: RedisClientLike | RedisClusterLike;
  /** Commands sent since the last reset(), by upper-case name. */
  readonly sent: Map<string, number>;
  count(name: string): number;
  total(): number;
  reset(): void;
}

/** `before` runs (and is awaited) before each command is sent on: a test's way into a race. */
export function commandSpy(
  opened: OpenedStore,
  before?: (args: readonly string[]) => Promise<void> | void,
): CommandSpy {
  const sent = new Map<string, number>();
  const note = (args: readonly string[]) => {
    const name = String(args[0]).toUpperCase();
    sent.set(name, (sent.get(name) ?? 0) + 1);
  };
  const counted = (node: RedisClientLike): RedisClientLike => ({
    async sendCommand(args: readonly string[]) {
      note(args);
      await before?.(args);
      return node.sendCommand(args);
    },
  });
  const spy = {
    sent,
    count: (name: string) => sent.get(name) ?? 0,
    total: () => [...sent.values()].reduce((a, b) => a + b, 0),
    reset: () => sent.clear(),
  };
  const cluster = opened.raw.redisCluster as unknown as RedisClusterLike | undefined;
  if (cluster) {
    const wrapped: RedisClusterLike = {
      async sendCommand(firstKey, isReadonly, args) {
        note(args);
        await before?.(args);
        return cluster.sendCommand(firstKey, isReadonly, args);
      },
      get masters() {
        return cluster.masters;
      },
      get slots() {
        return cluster.slots;
      },
      nodeClient: async (node) => counted(await cluster.nodeClient(node)),
    };
    return { ...spy, client: wrapped };
  }
  return { ...spy, client: counted(opened.raw.redis as unknown as RedisClientLike) };
}
