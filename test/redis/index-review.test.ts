/**
 * The collection index against what a review found: a record whose expiry was extended by hand
 * (EXPIRE) after its index score fell due stays found by every index read, and on a cluster its
 * slot's index does not expire before it.
 */
import 'reflect-metadata';
import { connect, Entity, Field, Key, ModelBuilder, TimeToLive } from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { serverIndexKey, slotIndexKey } from '../../src/providers/redis/collection-index';
import { indexPositionOf, memberDigest } from '../../src/providers/redis/index-position';
import { hashSlot } from '../../src/providers/redis/slots';
import { MAX_CURSOR_LENGTH } from '../../src/runtime/cursor';
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

for (const store of ['redis', 'redis-cluster'] as const) {
  describeStore(store, `collection index review fixes [${store}]`, () => {
    let opened: OpenedStore;
    let prefix: string;
    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `rv${process.pid}` });
      prefix = opened.raw.prefix as string;
    });
    afterAll(async () => {
      await opened.close();
    });
    const send = (key: string, args: string[]): Promise<unknown> => {
      const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
      if (cluster) return cluster.sendCommand(key, false, args);
      return opened.raw.redis!.sendCommand(args);
    };
    const keyOf = (id: string) => `${prefix}job:${id}`;
    const indexOf = (key: string) =>
      opened.raw.redisCluster ? slotIndexKey(prefix, 'job', hashSlot(key)) : serverIndexKey(prefix, 'job');

    test('a record extended by hand after its score fell due is counted, found and forecast (no write between)', async () => {
      const jobs = opened.db.repository(Job);
      await jobs.count();
      await jobs.insert(job('kept', 'ext'), { ttl: 1 });
      await send(keyOf('kept'), ['EXPIRE', keyOf('kept'), '3600']);
      await sleep(1300);
      // Its member still has the old score, now in the past: no write re-scored it.
      const idx = indexOf(keyOf('kept'));
      expect(Number(await send(idx, ['ZSCORE', idx, keyOf('kept')]))).toBeLessThan(Date.now());
      expect((await jobs.findPage({}, { limit: 10 })).items.map((j) => j.id)).toEqual(['kept']);
      expect(await jobs.count()).toBe(1);
      expect(await jobs.count({ owner: 'ext' })).toBe(1);
      expect((await jobs.find({})).map((j) => j.id)).toEqual(['kept']);
      const forecast = (await opened.db.expiryForecast()).entries[0];
      expect(forecast).toMatchObject({ method: 'aggregate', exact: true, read: 1, due: 0 });
      const [step] = (await opened.db.plan({ counts: true })).steps;
      expect(step?.effect?.text ?? '').toMatch(/\b1 stored keys/);
      await jobs.delete('kept');
    });

    test('a limited read past many members whose key is gone takes one script per 1000 of them, not one per limit', async () => {
      const spy = commandSpy(opened);
      const db = await connect(model(), new RedisStore({ client: spy.client as never, prefix: `${prefix}lim:` }));
      const jobs = db.repository(Job);
      await jobs.count();
      const dead = Array.from({ length: 200 }, (_, i) => `d${i}`);
      for (let i = 0; i < dead.length; i += 50) {
        await Promise.all(dead.slice(i, i + 50).map((id) => jobs.insert(job(id, 'dead'), { ttl: 1 })));
      }
      await jobs.insert(job('live1'), { ttl: 600 });
      await jobs.insert(job('live2'), { ttl: 600 });
      await sleep(1300);
      spy.reset();
      expect((await jobs.find({}, { limit: 2 })).map((j) => j.id).sort()).toEqual(['live1', 'live2']);
      const primaries = opened.raw.redisCluster ? opened.raw.redisCluster.masters.length : 1;
      expect(spy.count('EVALSHA_RO') + spy.count('EVAL_RO')).toBeLessThanOrEqual(2 * primaries);
      await jobs.deleteMany({}, { all: true });
      await db.close();
    });

    test('a page of one member after the built member goes on (no loop on the built member)', async () => {
      const jobs = opened.db.repository(Job);
      await jobs.count();
      await jobs.upsert(job('one', 'lim'));
      await jobs.upsert(job('two', 'lim'));
      expect(await jobs.find({}, { limit: 1 })).toHaveLength(1);
      expect((await jobs.find({ owner: 'lim' }, { limit: 2 })).map((j) => j.id).sort()).toEqual(['one', 'two']);
      await jobs.deleteMany({}, { all: true });
    });

    test('a cursor findPage hands out stays short with long keys: the handed-out members go as digests', async () => {
      const jobs = opened.db.repository(Job);
      const ids = Array.from({ length: 300 }, (_, i) => String(i).padStart(2500, 'x'));
      for (let i = 0; i < ids.length; i += 50) {
        await Promise.all(ids.slice(i, i + 50).map((id) => jobs.insert(job(id, 'long'))));
      }
      for (const where of [{ owner: 'long' }, {}]) {
        const seen = new Set<string>();
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await jobs.findPage(where, cursor === undefined ? { limit: 95 } : { limit: 95, cursor });
          page.items.forEach((j) => seen.add(j.id));
          if (page.cursor !== undefined) expect(page.cursor.length).toBeLessThan(MAX_CURSOR_LENGTH / 8);
          cursor = page.cursor;
          pages += 1;
        } while (cursor !== undefined && pages < 100);
        expect(seen.size).toBe(300);
      }
      await jobs.deleteMany({ owner: 'long' });
    }, 60_000);

    test('a position of an older cursor (members, not digests) is read with their digests', () => {
      expect(indexPositionOf({ z: 0, c: '7', s: ['a'], k: ['b'] })).toEqual({
        z: 0,
        c: '7',
        s: [memberDigest('a')],
        k: [memberDigest('b')],
        h: 1,
      });
      const d = memberDigest('a');
      expect(indexPositionOf({ z: 0, c: '7', s: [d], h: 1 })).toEqual({ z: 0, c: '7', s: [d], h: 1 });
      expect(indexPositionOf({ z: 0, c: '7', s: ['a'], h: 1 })).toBeUndefined();
      expect(indexPositionOf({ z: 0, c: '7', s: [], h: 2 })).toBeUndefined();
    });

    test('a per-slot index (cluster) has no expiry: a record extended by hand never outlives it', async () => {
      const jobs = opened.db.repository(Job);
      await jobs.count();
      await jobs.insert(job('long', 'ext'), { ttl: 1 });
      await send(keyOf('long'), ['EXPIRE', keyOf('long'), '3600']);
      const idx = indexOf(keyOf('long'));
      const pttl = Number(await send(idx, ['PTTL', idx]));
      if (opened.raw.redisCluster) {
        expect(pttl).toBe(-1);
        // An index written by an older version (with an expiry) loses it at the next write to it.
        await send(idx, ['PEXPIRE', idx, '90000']);
        let near = 0;
        while (indexOf(keyOf(`near-${near}`)) !== idx) near += 1;
        await jobs.upsert(job(`near-${near}`, 'ext'), { ttl: 5 });
        expect(Number(await send(idx, ['PTTL', idx]))).toBe(-1);
        // Emptied by deletes, it is gone (Redis removes an empty sorted set).
        await jobs.delete(`near-${near}`);
        await jobs.delete('long');
        expect(Number(await send(idx, ['EXISTS', idx]))).toBe(0);
      } else {
        // One server: the index keeps its expiry and its built member says when it was lost.
        expect(pttl).toBeGreaterThan(0);
        await jobs.delete('long');
      }
    });
  });
}
