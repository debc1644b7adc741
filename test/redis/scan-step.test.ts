/**
 * scanStep (src/providers/redis/scan-step.ts): one SCAN call at a resumable position (which target
 * + that target's SCAN cursor), on the test bed's Redis Cluster and on one server. A walk of steps
 * visits every primary in turn and sees every key; a walk resumed from positions that went through
 * JSON (as a page cursor carries them) sees the same keys; a position past the last target ends
 * the walk without a call; positions that are not ones are told apart.
 */
import { clusterNodes, serverNodes } from '../../src/providers/redis/nodes';
import type { RedisClientLike, RedisClusterLike } from '../../src/providers/redis/gateway';
import { RedisRouter } from '../../src/providers/redis/router';
import { walkTargets } from '../../src/providers/redis/scan';
import { scanStep, walkPositionOf, WALK_START, type WalkPosition } from '../../src/providers/redis/scan-step';
import { deleteClusterKeys, redisClusterClient, type TestRedisCluster } from '../harness/redis-cluster';
import { deleteKeys, redisClient, testPrefix, type TestRedisClient } from '../harness/redis';
import { describeStore } from '../harness/stores';

const place = { operation: 'scanStep test' };
const KEYS = 40;

/** Every step from WALK_START to the end, each position sent through JSON first (a page cursor's trip). */
async function walkAll(targets: readonly RedisClientLike[], pattern: string, count: number) {
  const steps: Array<{ at: WalkPosition; keys: string[] }> = [];
  let at: WalkPosition | undefined = WALK_START;
  while (at !== undefined) {
    const resumed = walkPositionOf(JSON.parse(JSON.stringify(at)));
    expect(resumed).toEqual(at);
    const step = await scanStep(targets, resumed as WalkPosition, { pattern, count }, place);
    steps.push({ at, keys: step.keys });
    at = step.next;
    expect(steps.length).toBeLessThan(1000);
  }
  return steps;
}

const written = (prefix: string) => Array.from({ length: KEYS }, (_, i) => `${prefix}k${i}`).sort();

describeStore('redis-cluster', 'scanStep on Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let targets: RedisClientLike[];
  const prefix = testPrefix('scanstep');

  beforeAll(async () => {
    cluster = await redisClusterClient();
    for (const key of written(prefix)) await cluster.sendCommand(key, false, ['SET', key, 'v']);
    targets = await walkTargets(new RedisRouter(clusterNodes(cluster as unknown as RedisClusterLike)));
  });
  afterAll(async () => {
    if (cluster) {
      await deleteClusterKeys(cluster, prefix);
      cluster.destroy();
    }
  });

  test('a walk of steps visits each primary in turn, each to its end, and sees every key', async () => {
    expect(targets).toHaveLength(3);
    const steps = await walkAll(targets, `${prefix}*`, 5);
    const nodes = steps.map((s) => s.at.node);
    // Ascending, and every primary started at cursor 0.
    expect(nodes).toEqual([...nodes].sort((a, b) => a - b));
    expect(steps.filter((s) => s.at.cursor === '0').map((s) => s.at.node)).toEqual([0, 1, 2]);
    const perNode = [0, 1, 2].map((n) => new Set(steps.filter((s) => s.at.node === n).flatMap((s) => s.keys)).size);
    // The keys live on every primary: one node's SCAN alone would miss some.
    expect(perNode.every((n) => n > 0 && n < KEYS)).toBe(true);
    expect([...new Set(steps.flatMap((s) => s.keys))].sort()).toEqual(written(prefix));
  });

  test('a walk stopped after any step and resumed from its position sees the rest', async () => {
    const whole = await walkAll(targets, `${prefix}*`, 3);
    expect(whole.length).toBeGreaterThan(3);
    for (const cut of [1, Math.floor(whole.length / 2), whole.length - 1]) {
      const before = whole.slice(0, cut).flatMap((s) => s.keys);
      let at: WalkPosition | undefined = whole[cut]?.at;
      const after: string[] = [];
      while (at !== undefined) {
        const step = await scanStep(targets, at, { pattern: `${prefix}*`, count: 3 }, place);
        after.push(...step.keys);
        at = step.next;
      }
      expect([...new Set([...before, ...after])].sort()).toEqual(written(prefix));
    }
  });

  test('MATCH filters on every primary: a pattern no key has gives empty steps to the end', async () => {
    const steps = await walkAll(targets, `${prefix}none*`, 100);
    expect(steps.flatMap((s) => s.keys)).toEqual([]);
    expect(new Set(steps.map((s) => s.at.node))).toEqual(new Set([0, 1, 2]));
  });

  test('a position past the last primary (fewer primaries than when it was cut) ends the walk without a call', async () => {
    const unreachable: RedisClientLike = {
      sendCommand: () => Promise.reject(new Error('no call expected')),
    };
    const step = await scanStep([unreachable], { node: 1, cursor: '17' }, { pattern: '*', count: 10 }, place);
    expect(step).toEqual({ keys: [], next: undefined });
  });
});

describeStore('redis', 'scanStep on one server', () => {
  let client: TestRedisClient;
  const prefix = testPrefix('scanstep1');

  beforeAll(async () => {
    client = await redisClient();
    for (const key of written(prefix)) await client.sendCommand(['SET', key, 'v']);
  });
  afterAll(async () => {
    if (client) {
      await deleteKeys(client, prefix);
      client.destroy();
    }
  });

  test('one target: the walk ends when its cursor comes back to 0, every key seen', async () => {
    const targets = await walkTargets(new RedisRouter(serverNodes(client)));
    expect(targets).toHaveLength(1);
    const steps = await walkAll(targets, `${prefix}*`, 7);
    expect(steps.every((s) => s.at.node === 0)).toBe(true);
    expect([...new Set(steps.flatMap((s) => s.keys))].sort()).toEqual(written(prefix));
  });
});

describe('walkPositionOf', () => {
  test.each([
    [
      { node: 0, cursor: '0' },
      { node: 0, cursor: '0' },
    ],
    [
      { node: 2, cursor: '18446744073709551615' },
      { node: 2, cursor: '18446744073709551615' },
    ],
    [{ node: -1, cursor: '0' }, undefined],
    [{ node: 1.5, cursor: '0' }, undefined],
    [{ node: 16384, cursor: '0' }, undefined],
    [{ node: '0', cursor: '0' }, undefined],
    [{ node: 0, cursor: 5 }, undefined],
    [{ node: 0, cursor: '-5' }, undefined],
    [{ node: 0, cursor: '1e3' }, undefined],
    [{ node: 0 }, undefined],
    [null, undefined],
    ['0:0', undefined],
  ])('%j is %j', (raw, expected) => {
    expect(walkPositionOf(raw)).toEqual(expected);
  });
});
