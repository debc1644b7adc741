/**
 * Issue 29: on Redis (one server and Redis Cluster) find(), count(), plan --counts and the expiry
 * forecast read what the collection holds, not the whole database: a database full of foreign keys
 * costs them no SCAN once the collection's index exists.
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, TimeToLive } from '../../src';
import { describeStore } from '../harness/stores';
import { openStore, type OpenedStore } from '../harness/open-store';
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

interface Bed {
  /** One client per primary (the one server, or each cluster primary). */
  primaries(): Promise<TestRedisClient[]>;
}

function bedOf(opened: OpenedStore): Bed {
  const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
  if (cluster) {
    return {
      primaries: () =>
        Promise.all(cluster.masters.map((m) => cluster.nodeClient(m) as unknown as Promise<TestRedisClient>)),
    };
  }
  const client = opened.raw.redis as TestRedisClient;
  return { primaries: async () => [client] };
}

/** SCAN calls served so far, over every primary (INFO commandstats). */
async function scanCalls(bed: Bed): Promise<number> {
  let calls = 0;
  for (const node of await bed.primaries()) {
    const info = String(await node.sendCommand(['INFO', 'commandstats']));
    calls += Number(/^cmdstat_scan:calls=(\d+)/m.exec(info)?.[1] ?? 0);
  }
  return calls;
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
    let bed: Bed;
    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `ix${process.pid}` });
      prefix = opened.raw.prefix as string;
      bed = bedOf(opened);
      await fillForeign(opened, prefix);
      const tickets = opened.db.repository(Ticket);
      for (let i = 0; i < 5; i++) await tickets.insert(ticket(`t${i}`, i % 2 === 0 ? 'ann' : 'bob'));
      // The first read may build the index once (records of an older version): not what is measured.
      await tickets.count();
    }, 120_000);
    afterAll(() => opened.close());

    test('count() and find() walk the collection only: no SCAN over the database', async () => {
      const tickets = opened.db.repository(Ticket);
      const before = await scanCalls(bed);
      expect(await tickets.count()).toBe(5);
      expect(await tickets.count({ owner: 'bob' })).toBe(2);
      expect((await tickets.find({ owner: 'ann' })).map((t) => t.id).sort()).toEqual(['t0', 't2', 't4']);
      expect(await tickets.find({}, { limit: 2 })).toHaveLength(2);
      expect((await scanCalls(bed)) - before).toBe(0);
    });

    test('plan --counts and the forecast read the index, and say so', async () => {
      const before = await scanCalls(bed);
      const [step] = (await opened.db.plan({ counts: true })).steps;
      expect(step?.effect?.text).toMatch(/0 of 5 stored keys carry a TTL longer than 3600s/);
      expect(step?.effect?.text).toMatch(/index/);
      expect(step?.effect?.text).not.toMatch(/SCAN/);
      const forecast = await opened.db.expiryForecast();
      const mine = forecast.entries.find((f) => f.collection === 'ticket');
      expect(mine).toMatchObject({ exact: true, read: 5, never: 0 });
      expect(mine?.cost.text).toMatch(/index/);
      expect(mine?.cost.text).not.toMatch(/SCAN/);
      expect((await scanCalls(bed)) - before).toBe(0);
    });

    test('deletes, TTL changes and expiry keep the index in step', async () => {
      const tickets = opened.db.repository(Ticket);
      await tickets.upsert(ticket('short'), { ttl: 1 });
      await tickets.upsert(ticket('forever'), { ttl: 'never' });
      await tickets.delete('t0');
      expect(await tickets.count()).toBe(6);
      await tickets.setTtl('forever', 3600);
      await opened.db.unitOfWork().delete(Ticket, 't1').commit();
      expect(await tickets.count()).toBe(5);
      await new Promise((r) => setTimeout(r, 1200));
      expect(await tickets.count()).toBe(4);
      expect((await tickets.find()).map((t) => t.id).sort()).toEqual(['forever', 't2', 't3', 't4']);
    });
  });
}
