/**
 * A primary killed during writes (issue 27): its replica takes over, writes and TTL reads resume,
 * nothing acknowledged is lost (the store waits for one replica: waitForReplicas) and every
 * stored expiry instant is unchanged (TTLs replicate as absolute ms times). The test starts a
 * cluster of its own: killing a node of the shared one would fail other files' tests meanwhile.
 */
import 'reflect-metadata';
import {
  connect,
  Entity,
  Field,
  Key,
  LifespanError,
  ModelBuilder,
  PartitionKey,
  TimeToLive,
  type StoreContext,
} from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { keyOf } from '../../src/providers/redis/keys';
import { compileModel } from '../../src/providers/redis/compile';
import { hashSlot } from '../../src/providers/redis/slots';
import { sleep } from '../servers/system';
import {
  clusterHealthy,
  nodeCommand,
  redisClusterClient,
  startRedisCluster,
  type RedisClusterBed,
  type TestRedisCluster,
} from '../harness/redis-cluster';
import { describeStore } from '../harness/stores';

@Entity()
@TimeToLive({ ttl: 100, perWrite: true })
class Reading {
  @PartitionKey() sensor = '';
  @Key() at = 0;
  @Field() value = 0;
}

const model = () => new ModelBuilder().entity(Reading, (e) => e.toCollection('reading')).build();
const prefix = 'failover:';
const reading = (i: number): Reading => Object.assign(new Reading(), { sensor: `s${i}`, at: i, value: i });
const [mapping] = compileModel(model()).mappings;
const keyFor = (i: number): string => keyOf(prefix, mapping!, { sensor: `s${i}`, at: i });

/** Until a surviving node sees the victim as failed and three primaries serve every slot. */
async function promoted(bed: RedisClusterBed, victim: string): Promise<void> {
  const survivor = bed.nodes.find((n) => n !== victim) as string;
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const lines = (await nodeCommand(survivor, ['CLUSTER', 'NODES']))?.split('\n') ?? [];
    const victimFailed = lines.some((l) => l.includes(` ${victim}@`) && /\bfail\b/.test(l));
    const liveMasters = lines.filter((l) => /\bmaster\b/.test(l) && !/\bfail/.test(l)).length;
    if (victimFailed && liveMasters === 3) return;
    await sleep(200);
  }
  throw new Error(`no replica took over from ${victim} within 30 s`);
}

describeStore('redis-cluster', 'Redis Cluster failover', () => {
  let bed: RedisClusterBed;
  let cluster: TestRedisCluster;
  let db: StoreContext;

  beforeAll(async () => {
    bed = await startRedisCluster();
    cluster = await redisClusterClient(bed.nodes);
    db = await connect(
      model(),
      new RedisStore({ client: cluster, prefix, waitForReplicas: { replicas: 1, timeoutMs: 2000 } }),
    );
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    cluster?.destroy();
    await bed?.stop();
  });

  test('a primary killed during writes: a replica takes over, writes and TTL reads resume, nothing acknowledged is lost, instants kept', async () => {
    const readings = db.repository(Reading);
    const instant = (i: number) => cluster.sendCommand(keyFor(i), true, ['PEXPIRETIME', keyFor(i)]) as Promise<number>;
    const victim = cluster.masters[0]!.address;
    // The slots the victim serves now (after the failover its replica serves them).
    const victimSlots = new Set([...cluster.slots.keys()].filter((s) => cluster.slots[s]?.master.address === victim));
    const onVictim = (i: number) => victimSlots.has(hashSlot(keyFor(i)));

    const acknowledged: number[] = [];
    const before = new Map<number, number>();
    for (let i = 0; i < 30; i++) {
      await readings.upsert(reading(i));
      acknowledged.push(i);
      before.set(i, await instant(i));
    }
    expect([...before.keys()].filter(onVictim).length).toBeGreaterThan(0);

    // Writes go on while the primary dies; each is acknowledged (after WAIT) or fails with a typed error.
    const failures: unknown[] = [];
    let next = 30;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const i = next++;
        try {
          await readings.upsert(reading(i));
          acknowledged.push(i);
        } catch (error) {
          failures.push(error);
        }
      }
    })();
    while (acknowledged.length < 40) await sleep(10);
    await bed.kill(victim);
    await promoted(bed, victim);
    // The killed node comes back empty (no persistence) and joins as the new primary's replica.
    bed.restart(victim);
    const until = Date.now() + 30_000;
    while (!(await clusterHealthy(bed.nodes))) {
      if (Date.now() > until) throw new Error('the cluster did not heal within 30 s');
      await sleep(200);
    }
    const afterHeal = acknowledged.length;
    while (acknowledged.length < afterHeal + 20) await sleep(10);
    writing = false;
    await writer;

    // Writes resumed on the slots the dead primary served, through its promoted replica.
    const resumed = acknowledged.slice(afterHeal).filter(onVictim);
    expect(resumed.length).toBeGreaterThan(0);
    expect(cluster.masters.map((m) => m.address)).not.toContain(victim);

    for (const error of failures) {
      expect(error).toBeInstanceOf(LifespanError);
      expect(['STORE_OPERATION_FAILED', 'REDIS_NOT_REPLICATED']).toContain((error as LifespanError).code);
    }
    // Nothing acknowledged is lost, and TTL reads answer on every slot.
    const stored = await readings.getMany(acknowledged.map((i) => ({ sensor: `s${i}`, at: i })));
    expect(stored.map((r) => r.at).sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
    for (const i of acknowledged) {
      const left = await readings.ttl({ sensor: `s${i}`, at: i });
      expect(left).toBeGreaterThan(40);
      expect(left).toBeLessThanOrEqual(100);
    }
    // Each key written before the failover keeps its absolute expiry instant (ms), on the new primaries too.
    for (const [i, at] of before) expect([i, await instant(i)]).toEqual([i, at]);
  }, 180_000);
});
