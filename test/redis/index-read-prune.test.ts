/**
 * Reads of the collection index remove the members they find whose key is gone: after a burst of
 * short-lived records and no write, the first count() (or forecast) pays one GET / PEXPIRETIME per
 * dead member and removes them, the next one reads about the live records only. A member whose
 * key was written again between the page read and the prune keeps its member.
 */
import 'reflect-metadata';
import { connect, Entity, Field, Key, ModelBuilder, TimeToLive } from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { serverIndexKey, slotIndexKey } from '../../src/providers/redis/collection-index';
import type { KeyspaceMapping } from '../../src/providers/redis/compile';
import type { RedisClientLike, RedisClusterLike } from '../../src/providers/redis/gateway';
import { INDEX_PRUNE, PAGE, walkIndex } from '../../src/providers/redis/index-reads';
import { clusterNodes, serverNodes } from '../../src/providers/redis/nodes';
import { RedisRouter } from '../../src/providers/redis/router';
import { hashSlot } from '../../src/providers/redis/slots';
import { describeStore } from '../harness/stores';
import { openStore, type OpenedStore } from '../harness/open-store';
import type { TestRedisCluster } from '../harness/redis-cluster';
import { commandSpy } from './command-spy';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Job {
  @Key() id = '';
  @Field() owner = '';
}

const model = () => new ModelBuilder().entity(Job, (e) => e.toCollection('job')).build();
const job = (id: string, owner = 'ann') => Object.assign(new Job(), { id, owner });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isPrune = (args: readonly string[]) =>
  (args[0] === 'EVALSHA' && args[1] === INDEX_PRUNE.sha) || (args[0] === 'EVAL' && args[1] === INDEX_PRUNE.source);

for (const store of ['redis', 'redis-cluster'] as const) {
  describeStore(store, `collection index reads prune dead members [${store}]`, () => {
    let opened: OpenedStore;
    let prefix: string;
    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `rp${process.pid}` });
      prefix = opened.raw.prefix as string;
    });
    afterAll(async () => {
      await opened.close();
    });
    const cluster = () => opened.raw.redisCluster as TestRedisCluster | undefined;
    const send = (key: string, args: string[]): Promise<unknown> => {
      const c = cluster();
      if (c) return c.sendCommand(key, false, args);
      return opened.raw.redis!.sendCommand(args);
    };
    const indexOf = (p: string, key: string) =>
      cluster() ? slotIndexKey(p, 'job', hashSlot(key)) : serverIndexKey(p, 'job');
    /** Members of the indexes that list `keys` (the built member '' of one server's index left out). */
    const indexed = async (p: string, keys: readonly string[]): Promise<number> => {
      let n = 0;
      for (const idx of new Set(keys.map((k) => indexOf(p, k)))) {
        n += Number(await send(idx, ['ZCARD', idx]));
        if ((await send(idx, ['ZSCORE', idx, ''])) !== null) n -= 1;
      }
      return n;
    };
    const router = () =>
      new RedisRouter(
        cluster()
          ? clusterNodes(cluster() as unknown as RedisClusterLike)
          : serverNodes(opened.raw.redis as unknown as RedisClientLike),
      );
    const mapping = { collection: 'job' } as unknown as KeyspaceMapping;
    const place = { operation: 'test read' };
    const insertAll = async (jobs: ReturnType<typeof opened.db.repository<Job>>, ids: string[], ttl: number) => {
      for (let i = 0; i < ids.length; i += 100) {
        await Promise.all(ids.slice(i, i + 100).map((id) => jobs.insert(job(id), { ttl })));
      }
    };

    for (const read of ['count', 'expiryForecast'] as const) {
      test(`${read}() removes the members whose key is gone; the next read meets none of them`, async () => {
        const p = `${prefix}${read}:`;
        const spy = commandSpy(opened);
        const db = await connect(model(), new RedisStore({ client: spy.client as never, prefix: p }));
        const jobs = db.repository(Job);
        await jobs.count();
        const dead = Array.from({ length: 600 }, (_, i) => `d${i}`);
        await insertAll(jobs, dead, 1);
        await insertAll(jobs, ['live1', 'live2'], 600);
        const keys = [...dead, 'live1', 'live2'].map((id) => `${p}job:${id}`);
        await sleep(1300);
        // No write since the keys expired: every member is still there.
        expect(await indexed(p, keys)).toBe(602);

        spy.reset();
        if (read === 'count') expect(await jobs.count()).toBe(2);
        else expect((await db.expiryForecast()).entries[0]).toMatchObject({ exact: true, read: 2 });
        expect(spy.count('EVALSHA') + spy.count('EVAL')).toBeGreaterThan(0);
        expect(await indexed(p, keys)).toBe(2);

        // The next read sends no prune and reads the two live members only (one GET each).
        spy.reset();
        if (read === 'count') expect(await jobs.count()).toBe(2);
        else expect((await db.expiryForecast()).entries[0]).toMatchObject({ exact: true, read: 2 });
        expect(spy.count('EVALSHA') + spy.count('EVAL')).toBe(0);
        const primaries = cluster() ? cluster()!.masters.length : 1;
        expect(spy.count('EVALSHA_RO') + spy.count('EVAL_RO')).toBeLessThanOrEqual(primaries);
        const cost = await walkIndex(
          router(),
          { prefix: p, cluster: !!cluster() },
          mapping,
          'values',
          place,
          () => true,
        );
        expect(cost).toMatchObject({ dead: 0, pruned: 0 });
        await jobs.deleteMany({}, { all: true });
        await db.close();
      }, 30_000);
    }

    test('each prune names at most a page of members: 2,500 dead members are all removed by one count()', async () => {
      const p = `${prefix}bound:`;
      const sizes: number[] = [];
      const spy = commandSpy(opened, (args) => {
        // EVALSHA sha 0 then index key, member pairs.
        if (isPrune(args)) sizes.push((args.length - 3) / 2);
      });
      const db = await connect(model(), new RedisStore({ client: spy.client as never, prefix: p }));
      const jobs = db.repository(Job);
      await jobs.count();
      const dead = Array.from({ length: 2500 }, (_, i) => `d${i}`);
      await insertAll(jobs, dead, 1);
      await jobs.insert(job('live'), { ttl: 600 });
      await sleep(1300);
      spy.reset();
      expect(await jobs.count()).toBe(1);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(PAGE);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(2500);
      expect(spy.count('EVALSHA_RO') + spy.count('EVAL_RO')).toBeLessThanOrEqual(
        sizes.length + (cluster() ? cluster()!.masters.length : 1),
      );
      expect(
        await indexed(
          p,
          [...dead, 'live'].map((id) => `${p}job:${id}`),
        ),
      ).toBe(1);
      await jobs.deleteMany({}, { all: true });
      await db.close();
    }, 60_000);

    test('a member whose key is written again between the page read and the prune keeps its member', async () => {
      const p = `${prefix}race:`;
      const ref: { db?: Awaited<ReturnType<typeof connect>> } = {};
      let raced = 0;
      const spy = commandSpy(opened, async (args) => {
        if (!isPrune(args) || raced > 0 || !ref.db) return;
        raced += 1;
        // The page read 'back' gone; before its prune runs, a write brings the record back.
        await ref.db.repository(Job).insert(job('back', 'again'), { ttl: 600 });
      });
      const db = await connect(model(), new RedisStore({ client: spy.client as never, prefix: p }));
      ref.db = db;
      const jobs = db.repository(Job);
      await jobs.count();
      await jobs.insert(job('back'), { ttl: 1 });
      await jobs.insert(job('live'), { ttl: 600 });
      await sleep(1300);
      expect(await jobs.count()).toBe(1);
      expect(raced).toBe(1);
      const back = `${p}job:back`;
      const idx = indexOf(p, back);
      expect(await send(idx, ['ZSCORE', idx, back])).not.toBeNull();
      expect(await jobs.count()).toBe(2);
      expect((await jobs.find({ owner: 'again' })).map((j) => j.id)).toEqual(['back']);
      await jobs.deleteMany({}, { all: true });
      await db.close();
    }, 30_000);
  });
}
