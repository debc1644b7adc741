/**
 * An index walk (findPage / iterate / deleteMany) resumed on another server process than the one
 * that issued its ZSCAN cursor: after a restart (or a failover, or a slot moved to another node)
 * the hash seed differs, and resuming that cursor can miss members, not only repeat them (SCAN's
 * guarantees hold for cursors of the previous call of the same server:
 * https://redis.io/docs/latest/commands/scan/, redis/redis#12440). A cursor names the process
 * that issued it (`o`: its run_id), and a walk resumed elsewhere starts that index again. The test
 * starts a server of its own: restarting the shared one would fail other files' tests meanwhile.
 */
import 'reflect-metadata';
import { createClient } from 'redis';
import {
  ClusteringKey,
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
import { compileModel } from '../../src/providers/redis/compile';
import { keyOf } from '../../src/providers/redis/keys';
import { hashSlot } from '../../src/providers/redis/slots';
import { decodeCursor, encodeCursor } from '../../src/runtime/cursor';
import { OwnRedisServer } from '../harness/own-redis-server';
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
@TimeToLive({ ttl: 3600, perWrite: true })
class Job {
  @Key() id = '';
  @Field() owner = '';
}

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Sample {
  @PartitionKey() sensor = '';
  @ClusteringKey() seq = 0;
}

const model = () =>
  new ModelBuilder()
    .entity(Job, (e) => e.toCollection('job'))
    .entity(Sample, (e) => e.toCollection('sample'))
    .build();
const job = (id: string) => Object.assign(new Job(), { id, owner: 'ann' });
const scope = { store: 'redis', entity: 'Job', collection: 'job', where: {} };

describeStore('redis', 'Redis index walk resumed on another server process', () => {
  let server: OwnRedisServer;
  let client: ReturnType<typeof createClient>;
  let db: StoreContext;
  const command = (args: string[]) => client.sendCommand(args);
  const runId = async () => /^run_id:(\w+)/m.exec(String(await command(['INFO', 'server'])))?.[1];

  beforeAll(async () => {
    server = await OwnRedisServer.start();
    client = createClient({ url: `redis://127.0.0.1:${server.port}` });
    client.on('error', () => undefined);
    await client.connect();
    db = await connect(model(), new RedisStore({ client, prefix: 'origin:' }));
  }, 30_000);
  afterAll(async () => {
    await db?.close();
    if (client?.isOpen) client.destroy();
    await server?.stop();
  });

  test('pages resumed after a restart return every record present for the whole walk', async () => {
    const jobs = db.repository(Job);
    const total = 3000;
    for (let i = 0; i < total; i += 250) {
      await Promise.all(Array.from({ length: 250 }, (_, j) => jobs.insert(job(`j${i + j}`))));
    }
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const got = await jobs.findPage({}, cursor === undefined ? { limit: 400 } : { limit: 400, cursor });
      got.items.forEach((j) => seen.add(j.id));
      cursor = got.cursor;
    }
    expect(cursor).toBeDefined();
    const before = await runId();

    await server.restart(command);
    expect(await runId()).not.toEqual(before);
    expect(Number(await command(['DBSIZE']))).toBeGreaterThan(total);

    let pages = 0;
    while (cursor !== undefined && pages++ < 100) {
      const got = await jobs.findPage({}, { limit: 400, cursor });
      got.items.forEach((j) => seen.add(j.id));
      cursor = got.cursor;
    }
    expect(cursor).toBeUndefined();
    const missed = Array.from({ length: total }, (_, i) => `j${i}`).filter((id) => !seen.has(id));
    expect({ missed: missed.length, some: missed.slice(0, 5) }).toEqual({ missed: 0, some: [] });
  }, 60_000);

  test('an origin that is not a run_id is CURSOR_INVALID; a cursor without one resumes as before', async () => {
    const jobs = db.repository(Job);
    const first = await jobs.findPage({}, { limit: 250 });
    const position = decodeCursor(first.cursor, scope) as Record<string, unknown>;
    // The cursor names the process that issued its ZSCAN cursor (past cursor 0: see IndexPosition).
    expect(position).toMatchObject({ o: await runId() });
    expect(position['c']).not.toBe('0');
    for (const o of [5, '', 'not-hex!', 'a'.repeat(65), null]) {
      const error = await jobs
        .findPage({}, { cursor: encodeCursor(scope, { ...position, o }) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LifespanError);
      expect((error as LifespanError).code).toBe('CURSOR_INVALID');
    }
    // Old cursors (no origin) resume; another process's origin starts the index again (records may repeat).
    const { o: _issued, ...old } = position;
    await expect(jobs.findPage({}, { limit: 10, cursor: encodeCursor(scope, old) })).resolves.toBeDefined();
    const elsewhere = await jobs.findPage(
      {},
      { limit: 10, cursor: encodeCursor(scope, { ...position, o: 'f'.repeat(40) }) },
    );
    expect(elsewhere.items).toHaveLength(10);
  });
});

describeStore('redis-cluster', 'Redis Cluster index walk resumed after a failover', () => {
  let bed: RedisClusterBed;
  let cluster: TestRedisCluster;
  let db: StoreContext;
  const prefix = 'origin:';

  beforeAll(async () => {
    bed = await startRedisCluster();
    cluster = await redisClusterClient(bed.nodes);
    db = await connect(model(), new RedisStore({ client: cluster, prefix }));
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    cluster?.destroy();
    await bed?.stop();
  });

  test("a partition's pages resumed on the promoted replica return every record present for the whole walk", async () => {
    const samples = db.repository(Sample);
    const total = 3000;
    for (let i = 0; i < total; i += 250) {
      await Promise.all(
        Array.from({ length: 250 }, (_, j) =>
          samples.insert(Object.assign(new Sample(), { sensor: 's1', seq: i + j })),
        ),
      );
    }
    const seen = new Set<number>();
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const got = await samples.findPage(
        { sensor: 's1' },
        cursor === undefined ? { limit: 400 } : { limit: 400, cursor },
      );
      got.items.forEach((r) => seen.add(r.seq));
      cursor = got.cursor;
    }
    expect(cursor).toBeDefined();

    // A graceful failover of the partition's slot: its replica (another process) takes over, nothing is lost.
    const [mapping] = compileModel(model()).mappings.filter((m) => m.collection === 'sample');
    const slot = hashSlot(keyOf(prefix, mapping!, { sensor: 's1', seq: 0 }));
    const primary = cluster.slots[slot]!.master.address;
    const lines = (await nodeCommand(primary, ['CLUSTER', 'NODES']))!.split('\n');
    const id = lines.find((l) => l.includes('myself'))!.split(' ')[0]!;
    const replica = lines
      .find((l) => l.includes(` ${id} `) && /\bslave\b/.test(l))!
      .split(' ')[1]!
      .split('@')[0]!;
    expect(await nodeCommand(replica, ['CLUSTER', 'FAILOVER'])).toBe('OK');
    const until = Date.now() + 30_000;
    while (
      !/^role:master/m.test((await nodeCommand(replica, ['INFO', 'replication'])) ?? '') ||
      !(await clusterHealthy(bed.nodes))
    ) {
      if (Date.now() > until) throw new Error('the replica did not take over within 30 s');
      await sleep(200);
    }

    let pages = 0;
    while (cursor !== undefined && pages++ < 100) {
      const got = await samples.findPage({ sensor: 's1' }, { limit: 400, cursor });
      got.items.forEach((r) => seen.add(r.seq));
      cursor = got.cursor;
    }
    expect(cursor).toBeUndefined();
    const missed = Array.from({ length: total }, (_, i) => i).filter((i) => !seen.has(i));
    expect({ missed: missed.length, some: missed.slice(0, 5) }).toEqual({ missed: 0, some: [] });
  }, 120_000);
});
