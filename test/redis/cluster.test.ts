/**
 * RedisStore on the test bed's Redis Cluster (3 primaries + 3 replicas, issue 27): the keys of one
 * partition share a slot, a unit of work across slots is refused before anything is sent, walks
 * (find, count, plan --counts) visit every primary, multi-key reads are split per slot, the
 * recorded defaults live on one slot, and waitForReplicas makes a write wait for its replica.
 */
import 'reflect-metadata';
import { connect, Entity, Field, Key, ModelBuilder, PartitionKey, TimeToLive, type StoreContext } from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { parseClusterUrl } from '../../src/providers/redis/cluster-url';
import { recordKey } from '../../src/providers/redis/plan';
import { hashSlot } from '../../src/providers/redis/slots';
import { deleteClusterKeys, redisClusterClient, type TestRedisCluster } from '../harness/redis-cluster';
import { testPrefix } from '../harness/redis';
import { describeStore } from '../harness/stores';

@Entity()
@TimeToLive({ ttl: 600, perWrite: true })
class Reading {
  @PartitionKey() sensor = '';
  @Key() at = 0;
  @Field() value = 0;
}

@Entity()
@TimeToLive({ ttl: 600, perWrite: true })
class Alarm {
  @PartitionKey() sensor = '';
  @Key() code = '';
}

@Entity()
@TimeToLive({ ttl: 300 })
class Session {
  @Key() id = '';
  @Field() user = '';
}

const reading = (sensor: string, at: number, value = 1): Reading => Object.assign(new Reading(), { sensor, at, value });
const model = () =>
  new ModelBuilder()
    .entity(Reading, (e) => e.toCollection('reading'))
    .entity(Alarm, (e) => e.toCollection('alarm'))
    .entity(Session, (e) => e.toCollection('session'))
    .build();

/** The record keys of each primary under a prefix (SCAN on that node; strings: not the collection indexes). */
async function keysPerPrimary(cluster: TestRedisCluster, prefix: string): Promise<number[]> {
  const counts: number[] = [];
  for (const master of cluster.masters) {
    const node = await cluster.nodeClient(master);
    let cursor = '0';
    let n = 0;
    do {
      const [next, keys] = (await node.sendCommand([
        'SCAN',
        cursor,
        'MATCH',
        `${prefix}*`,
        'COUNT',
        '1000',
        'TYPE',
        'string',
      ])) as [string, string[]];
      cursor = next;
      n += keys.length;
    } while (cursor !== '0');
    counts.push(n);
  }
  return counts;
}

describeStore('redis-cluster', 'RedisStore on Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let db: StoreContext;
  const prefix = testPrefix('cluster');
  const raw = (args: string[]) => cluster.sendCommand(args[1], false, args);

  beforeAll(async () => {
    cluster = await redisClusterClient();
    db = await connect(model(), new RedisStore({ client: cluster, prefix }));
  });
  afterAll(async () => {
    await db?.close();
    if (cluster) {
      await deleteClusterKeys(cluster, prefix);
      cluster.destroy();
    }
  });

  test("lifespan's slot of a key is the server's (CLUSTER KEYSLOT), the hash tag included", async () => {
    const keys = [
      `${prefix}reading:{s1}:5`,
      `${prefix}session:abc`,
      `${prefix}reading:{%00}:1`,
      'plain',
      '{}x',
      'a{b}c{d}',
      'ünï{ç}',
    ];
    for (const key of keys) {
      expect([key, hashSlot(key)]).toEqual([
        key,
        Number(await cluster.sendCommand(undefined, true, ['CLUSTER', 'KEYSLOT', key])),
      ]);
    }
  });

  test('describe() names the cluster and its primaries', () => {
    const text = new RedisStore({ client: cluster, prefix }).describe();
    expect(text).toMatch(/^redis cluster on 127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+ \(prefix /);
  });

  test('a unit of work across partitions is refused before anything is sent, naming them; nothing is written', async () => {
    const readings = db.repository(Reading);
    await readings.upsert(reading('kept', 1, 7));
    const failure = await db
      .unitOfWork()
      .upsert(reading('north', 1))
      .upsert(reading('south', 1))
      .delete(Reading, { sensor: 'kept', at: 1 })
      .commit()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: 'REDIS_CROSS_SLOT',
      store: 'redis',
      message: expect.stringMatching(/touches 3 Redis Cluster hash slots/),
      hint: expect.stringMatching(/one partition .*or commit one unit of work per partition/),
    });
    const message = (failure as Error).message;
    for (const p of ['north', 'south', 'kept']) expect(message).toContain(`Reading partition sensor = '${p}'`);
    expect(message).toContain('nothing was sent');
    expect(await readings.get({ sensor: 'north', at: 1 })).toBeUndefined();
    expect(await readings.get({ sensor: 'south', at: 1 })).toBeUndefined();
    expect(await readings.get({ sensor: 'kept', at: 1 })).toMatchObject({ value: 7 });
  });

  test('an entity without a partition key: each record is its own slot, and the message says so', async () => {
    const failure = await db
      .unitOfWork()
      .upsert(Object.assign(new Session(), { id: 'a', user: 'u' }))
      .upsert(Object.assign(new Session(), { id: 'b', user: 'u' }))
      .commit()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'REDIS_CROSS_SLOT' });
    expect((failure as Error).message).toMatch(/Session key '.*session:a' \(no @PartitionKey: one slot per record\)/);
    expect(await db.repository(Session).count()).toBe(0);
  });

  test('within one partition, across entities, a unit of work is one atomic script', async () => {
    await db.repository(Alarm).upsert(Object.assign(new Alarm(), { sensor: 'east', code: 'hot' }));
    const failure = await db
      .unitOfWork()
      .upsert(reading('east', 1))
      .insert(Object.assign(new Alarm(), { sensor: 'east', code: 'hot' }))
      .commit()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'STORE_DUPLICATE_KEY' });
    expect(await db.repository(Reading).get({ sensor: 'east', at: 1 })).toBeUndefined();
    await db
      .unitOfWork()
      .upsert(reading('east', 2), { ttl: 120 })
      .upsert(Object.assign(new Alarm(), { sensor: 'east', code: 'cold' }), { ttl: 'never' })
      .commit();
    expect(await db.repository(Reading).ttl({ sensor: 'east', at: 2 })).toBeLessThanOrEqual(120);
    expect(await db.repository(Alarm).ttl({ sensor: 'east', code: 'cold' })).toBeNull();
  });

  test('a script whose keys span slots is refused by the router itself, before it is sent', async () => {
    // The router every repository of a session sends through (the session's client).
    const session = (await new RedisStore({ client: cluster, prefix }).open(model())) as unknown as {
      client: { sendCommand(args: string[]): Promise<unknown> };
    };
    const a = `${prefix}x:{one}`;
    const b = `${prefix}x:{two}`;
    await expect(
      session.client.sendCommand(['EVAL', "redis.call('SET', KEYS[1], 1) redis.call('SET', KEYS[2], 1)", '2', a, b]),
    ).rejects.toMatchObject({ code: 'REDIS_CROSS_SLOT', message: expect.stringMatching(/2 Redis Cluster hash slots/) });
    expect(await raw(['EXISTS', a])).toBe(0);
    expect(await raw(['EXISTS', b])).toBe(0);
  });

  test('find() and count() walk every primary: 30 partitions over 3 primaries, all found', async () => {
    const walkPrefix = `${prefix}walk:`;
    const walkDb = await connect(model(), new RedisStore({ client: cluster, prefix: walkPrefix }));
    try {
      const readings = walkDb.repository(Reading);
      for (let i = 0; i < 30; i++) await readings.insert(reading(`s${i}`, i, i));
      const perPrimary = await keysPerPrimary(cluster, walkPrefix);
      expect(perPrimary).toHaveLength(3);
      // Spread over every primary: one node's SCAN alone would miss some.
      expect(perPrimary.every((n) => n > 0 && n < 30)).toBe(true);
      expect(perPrimary.reduce((a, b) => a + b, 0)).toBe(30);
      expect(await readings.count()).toBe(30);
      expect((await readings.find()).map((r) => r.at).sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
      expect(await readings.count({ value: 29 })).toBe(1);
      expect(await readings.find({ sensor: 's7' })).toEqual([expect.objectContaining({ at: 7, value: 7 })]);
      expect((await readings.find(undefined, { limit: 4 })).length).toBe(4);
      // getMany over keys of many slots: split per slot, answered in the order asked.
      const many = await readings.getMany([
        { sensor: 's3', at: 3 },
        { sensor: 'none', at: 0 },
        { sensor: 's20', at: 20 },
        { sensor: 's11', at: 11 },
      ]);
      expect(many.map((r) => r.at)).toEqual([3, 20, 11]);
    } finally {
      await walkDb.close();
      await deleteClusterKeys(cluster, walkPrefix);
    }
  });

  test('plan --counts walks every primary and says so in its cost line; the recorded defaults live on one slot', async () => {
    const planPrefix = `${prefix}plan:`;
    const planDb = await connect(model(), new RedisStore({ client: cluster, prefix: planPrefix }));
    try {
      const readings = planDb.repository(Reading);
      for (let i = 0; i < 12; i++) await readings.insert(reading(`p${i}`, i), { ttl: 5000 });
      const plan = await planDb.plan({ counts: true });
      const step = plan.steps.find((s) => s.collection === 'reading');
      expect(step?.effect?.text).toMatch(/12 of 12 stored keys carry a TTL longer than 600s/);
      expect(step?.effect?.text).toMatch(/SCAN call\(s\) on 3 cluster primaries/);
      expect(plan.target).toMatch(/^redis cluster on /);
      await planDb.ensureCollections();
      expect((await planDb.plan()).steps).toEqual([]);
      const record = recordKey(planPrefix);
      expect(hashSlot(record)).toBe(hashSlot('lifespan'));
      expect(await raw(['HGET', record, 'reading'])).toBe('600');
    } finally {
      await planDb.close();
      await deleteClusterKeys(cluster, planPrefix);
    }
  });

  test("explain() adds the cluster's behaviours: walks over every primary, instants kept on failover, replicas' counts, node-local notifications", () => {
    const [entry] = db.explain().entries;
    expect(entry?.limits).toContain(
      'find(), count(), expiryForecast() and plan --counts read the per-slot collection indexes, a page of at most 1,000 members per script and primary; findPage(), iterate() and deleteMany() walk them with ZSCAN slot by slot, one script per run of slots of one primary; the one-time index build SCANs each primary in turn (SCAN walks one node only)',
    );
    const warnings = (entry?.warnings ?? []).join('\n');
    expect(warnings).toMatch(/absolute Unix times in ms: after a failover the key keeps its expiry instant/);
    expect(warnings).toMatch(/DBSIZE \/ INFO keyspace on a replica count keys already expired/);
    expect(warnings).toMatch(/keyspace notifications .* are node-local/);
    expect(warnings).toMatch(/acknowledged by its primary alone .*waitForReplicas/);
  });

  test('waitForReplicas: a write waits for its replica; more replicas than there are fail REDIS_NOT_REPLICATED', async () => {
    const one = await connect(model(), new RedisStore({ client: cluster, prefix, waitForReplicas: 1 }));
    try {
      await one.repository(Reading).upsert(reading('acked', 1));
      await one.unitOfWork().upsert(reading('acked', 2)).upsert(reading('acked', 3)).commit();
      expect(await one.repository(Reading).count({ sensor: 'acked' })).toBe(3);
      expect(one.explain().entries[0]?.warnings.join('\n')).not.toMatch(/acknowledged by its primary alone/);
    } finally {
      await one.close();
    }
    const two = await connect(
      model(),
      new RedisStore({ client: cluster, prefix, waitForReplicas: { replicas: 2, timeoutMs: 50 } }),
    );
    try {
      await expect(two.repository(Reading).upsert(reading('unacked', 1))).rejects.toMatchObject({
        code: 'REDIS_NOT_REPLICATED',
        message: expect.stringMatching(/reached the primary but 1 of 2 replica\(s\) acknowledged it within 50 ms/),
      });
    } finally {
      await two.close();
    }
  });

  test('bad waitForReplicas values and unknown options are refused, naming them', () => {
    for (const value of [0, -1, 1.5, 'one', { replicas: 1, timeoutMs: 0 }, { replicas: 1, wait: 5 }, null]) {
      expect(() => new RedisStore({ client: cluster, waitForReplicas: value as never })).toThrow(
        expect.objectContaining({
          code: 'STORE_BAD_OPTION',
          detail: expect.stringMatching(/^waitForReplicas must be/),
        }),
      );
    }
    expect(() => new RedisStore({ client: cluster, replicas: 1 } as never)).toThrow(
      expect.objectContaining({ code: 'STORE_BAD_OPTION', detail: 'new RedisStore() does not take replicas' }),
    );
  });
});

describe('redis+cluster:// URLs', () => {
  test('seed nodes, user, password, TLS and prefix are read; database 0 only; unknown options refused', () => {
    expect(parseClusterUrl('redis+cluster://u:p%40ss@10.0.0.1:7000,10.0.0.2:7001,[::1]:7002/0?prefix=app:')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      tls: false,
      username: 'u',
      password: 'p@ss',
      prefix: 'app:',
    });
    expect(parseClusterUrl('rediss+cluster://h')).toMatchObject({ nodes: [{ host: 'h', port: 6379 }], tls: true });
    for (const [url, problem] of [
      ['redis+cluster://h:7000/1', /database '1': a cluster has database 0 only/],
      ['redis+cluster://h:7000?db=2', /unknown option\(s\) db/],
      ['redis+cluster://', /names no node/],
      ['redis+cluster://h:99999', /names the node 'h:99999', not host:port/],
    ] as const) {
      expect(() => parseClusterUrl(url)).toThrow(
        expect.objectContaining({ code: 'STORE_BAD_URL', message: expect.stringMatching(problem) }),
      );
    }
  });

  describeStore('redis-cluster', 'the CLI opener', () => {
    test('redis+cluster://<one seed node> opens the whole cluster; the password never shows', async () => {
      const { openRedisStoreUrl } = await import('../../src/providers/redis/open-url');
      const seed = (process.env['LIFESPAN_REDIS_CLUSTER'] ?? '').split(',')[0];
      const opened = await openRedisStoreUrl(`redis+cluster://${seed}?prefix=${testPrefix('cluster-url')}`);
      try {
        expect(opened.store.describe()).toMatch(/^redis cluster on (127\.0\.0\.1:\d+,?){3} \(prefix /);
        const session = await opened.store.open(new ModelBuilder().build());
        await session.close();
      } finally {
        await opened.dispose();
      }
    });
  });
});
