/**
 * Issue 29: on Redis (one server and Redis Cluster) find(), count(), plan --counts and the expiry
 * forecast read what the collection holds, not the whole database: a database full of foreign keys
 * costs them no SCAN once the collection's index exists.
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, TimeToLive } from '../../src';
import { describeStore } from '../harness/stores';
import { openStore, type OpenedStore } from '../harness/open-store';
import { connect, type StoreContext } from '../../src';
import { RedisStore } from '../../src/providers/redis';
import type { RedisClientLike, RedisClusterLike } from '../../src/providers/redis/gateway';
import type { TestRedisClient } from '../harness/redis';
import type { TestRedisCluster } from '../harness/redis-cluster';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Ticket {
  @Key() id = '';
  @Field() owner = '';
}

const model = () => new ModelBuilder().entity(Ticket, (e) => e.toCollection('ticket')).build();
const ticket = (id: string, owner = 'ann') => Object.assign(new Ticket(), { id, owner });

const FOREIGN = 20_000;

/** A client of the test bed that counts the SCAN calls lifespan sends through it (other suites' SCANs do not count). */
interface Spy {
  readonly client: RedisClientLike | RedisClusterLike;
  scans: number;
}

function spyOf(opened: OpenedStore): Spy {
  const spy: Spy = { client: undefined as never, scans: 0 };
  const counted = (node: RedisClientLike): RedisClientLike => ({
    sendCommand(args: readonly string[]) {
      if (String(args[0]).toUpperCase() === 'SCAN') spy.scans += 1;
      return node.sendCommand(args);
    },
  });
  const cluster = opened.raw.redisCluster as unknown as RedisClusterLike | undefined;
  if (cluster) {
    const wrapped: RedisClusterLike = {
      sendCommand: (firstKey, isReadonly, args) => cluster.sendCommand(firstKey, isReadonly, args),
      get masters() {
        return cluster.masters;
      },
      get slots() {
        return cluster.slots;
      },
      nodeClient: async (node) => counted(await cluster.nodeClient(node)),
    };
    return Object.assign(spy, { client: wrapped });
  }
  return Object.assign(spy, { client: counted(opened.raw.redis as unknown as RedisClientLike) });
}

/** Foreign keys (not lifespan's), written on each primary under the test's prefix + 'x:' (one slot each key). */
async function fillForeign(opened: OpenedStore, prefix: string): Promise<void> {
  const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
  const names = Array.from({ length: FOREIGN }, (_, i) => `${prefix}foreign:${i}`);
  if (cluster) {
    for (let i = 0; i < names.length; i += 1000) {
      await Promise.all(names.slice(i, i + 1000).map((k) => cluster.sendCommand(k, false, ['SET', k, 'x'])));
    }
    return;
  }
  const client = opened.raw.redis as TestRedisClient;
  for (let i = 0; i < names.length; i += 1000) {
    await client.sendCommand(['MSET', ...names.slice(i, i + 1000).flatMap((k) => [k, 'x'])]);
  }
}

for (const store of ['redis', 'redis-cluster'] as const) {
  describeStore(store, `collection index [${store}]`, () => {
    let opened: OpenedStore;
    let prefix: string;
    let spy: Spy;
    let db: StoreContext;
    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `ix${process.pid}` });
      prefix = opened.raw.prefix as string;
      spy = spyOf(opened);
      db = await connect(model(), new RedisStore({ client: spy.client, prefix }));
      await fillForeign(opened, prefix);
      const tickets = db.repository(Ticket);
      for (let i = 0; i < 5; i++) await tickets.insert(ticket(`t${i}`, i % 2 === 0 ? 'ann' : 'bob'));
      // The first read may build the index once (records of an older version): not what is measured.
      await tickets.count();
    }, 120_000);
    afterAll(async () => {
      await db.close();
      await opened.close();
    });

    test('count() and find() walk the collection only: no SCAN over the database', async () => {
      const tickets = db.repository(Ticket);
      const before = spy.scans;
      expect(await tickets.count()).toBe(5);
      expect(await tickets.count({ owner: 'bob' })).toBe(2);
      expect((await tickets.find({ owner: 'ann' })).map((t) => t.id).sort()).toEqual(['t0', 't2', 't4']);
      expect(await tickets.find({}, { limit: 2 })).toHaveLength(2);
      expect(spy.scans - before).toBe(0);
    });

    test('plan --counts and the forecast read the index, and say so', async () => {
      const before = spy.scans;
      const [step] = (await db.plan({ counts: true })).steps;
      expect(step?.effect?.text).toMatch(/0 of 5 stored keys carry a TTL longer than 3600s/);
      expect(step?.effect?.text).toMatch(/index/);
      expect(step?.effect?.text).not.toMatch(/SCAN/);
      const forecast = await db.expiryForecast();
      const mine = forecast.entries.find((f) => f.collection === 'ticket');
      expect(mine).toMatchObject({ exact: true, read: 5, never: 0 });
      expect(mine?.cost.text).toMatch(/index/);
      expect(mine?.cost.text).not.toMatch(/SCAN/);
      expect(spy.scans - before).toBe(0);
    });

    test('records written before the index are found: the first find()/count() builds it once, then no SCAN', async () => {
      const legacy = `${prefix}legacy:`;
      const key = `${legacy}ticket:old`;
      const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
      const args = ['SET', key, JSON.stringify({ id: 'old', owner: 'zed' }), 'EX', '600'];
      if (cluster) await cluster.sendCommand(key, false, args);
      else await (opened.raw.redis as TestRedisClient).sendCommand(args);
      const older = await connect(model(), new RedisStore({ client: spy.client, prefix: legacy }));
      const [before] = (await older.plan({ counts: true })).steps;
      expect(before?.effect?.text).toMatch(/no complete collection index yet.*SCAN/);
      const started = spy.scans;
      expect(await older.repository(Ticket).count()).toBe(1);
      const built = spy.scans;
      expect(built).toBeGreaterThan(started);
      expect(await older.repository(Ticket).find({ owner: 'zed' })).toEqual([ticket('old', 'zed')]);
      expect((await older.expiryForecast()).entries[0]).toMatchObject({ exact: true, read: 1 });
      expect(spy.scans).toBe(built);
      await older.close();
    });

    test('deletes, TTL changes and expiry keep the index in step', async () => {
      const tickets = db.repository(Ticket);
      await tickets.upsert(ticket('short'), { ttl: 1 });
      await tickets.upsert(ticket('forever'), { ttl: 'never' });
      await tickets.delete('t0');
      expect(await tickets.count()).toBe(6);
      await tickets.setTtl('forever', 3600);
      await db.unitOfWork().delete(Ticket, 't1').commit();
      expect(await tickets.count()).toBe(5);
      await new Promise((r) => setTimeout(r, 1200));
      expect(await tickets.count()).toBe(4);
      expect((await tickets.find()).map((t) => t.id).sort()).toEqual(['forever', 't2', 't3', 't4']);
    });

    test('a key deleted outside lifespan is skipped: count() and a limited find() answer what the database holds', async () => {
      const tickets = db.repository(Ticket);
      const key = `${prefix}ticket:t2`;
      const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
      if (cluster) await cluster.sendCommand(key, false, ['DEL', key]);
      else await (opened.raw.redis as TestRedisClient).sendCommand(['DEL', key]);
      expect(await tickets.count()).toBe(3);
      expect((await tickets.find({}, { limit: 3 })).map((t) => t.id).sort()).toEqual(['forever', 't3', 't4']);
    });
  });
}
