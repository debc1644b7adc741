/**
 * Every write path keeps the collection index in step with the record (collection-index.ts):
 * after it, the record's member scores its PEXPIRETIME (+inf: none; no member: no key), and the
 * index key itself lives at least as long as its latest member (no expiry while one is +inf).
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, TimeToLive, Version } from '../../src';
import { serverIndexKey, slotIndexKey } from '../../src/providers/redis/collection-index';
import { hashSlot } from '../../src/providers/redis/slots';
import { describeStore } from '../harness/stores';
import { openStore, type OpenedStore } from '../harness/open-store';
import type { TestRedisCluster } from '../harness/redis-cluster';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Doc {
  @Key() id = '';
  @Field() owner = '';
  @Version() version = 0;
}

const model = () => new ModelBuilder().entity(Doc, (e) => e.toCollection('doc')).build();
const doc = (id: string, owner = 'ann', version = 0) => Object.assign(new Doc(), { id, owner, version });

for (const store of ['redis', 'redis-cluster'] as const) {
  describeStore(store, `collection index upkeep on every write path [${store}]`, () => {
    let opened: OpenedStore;
    let prefix: string;
    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `up${process.pid}` });
      prefix = opened.raw.prefix as string;
    });
    afterAll(async () => {
      await opened.close();
    });

    const send = (key: string, args: string[]): Promise<unknown> => {
      const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
      if (cluster) return cluster.sendCommand(key, true, args);
      return opened.raw.redis!.sendCommand(args);
    };
    const indexOf = (key: string) =>
      opened.raw.redisCluster ? slotIndexKey(prefix, 'doc', hashSlot(key)) : serverIndexKey(prefix, 'doc');

    /** The record's member against its key, and the index key's expiry against its members. */
    async function expectInStep(id: string, label: string): Promise<void> {
      const key = `${prefix}doc:${id}`;
      const idx = indexOf(key);
      const score = await send(idx, ['ZSCORE', idx, key]);
      const at = Number(await send(key, ['PEXPIRETIME', key]));
      const want = at === -2 ? null : at === -1 ? Infinity : at;
      expect({ label, score: score === null ? null : Number(score) }).toEqual({ label, score: want });
      // RESP2 replies member, score, …; RESP3 [member, score] pairs.
      const members = (await send(idx, ['ZRANGE', idx, '(-inf', '+inf', 'BYSCORE', 'WITHSCORES'])) as unknown[];
      const scores = members
        .flat()
        .filter((_, i) => i % 2 === 1)
        .map(Number);
      if (scores.length === 0) return;
      const idxAt = Number(await send(idx, ['PEXPIRETIME', idx]));
      if (scores.includes(Infinity)) expect({ label, idxAt }).toEqual({ label, idxAt: -1 });
      else if (idxAt !== -1)
        expect({ label, longEnough: idxAt >= Math.max(...scores) }).toEqual({ label, longEnough: true });
    }

    test('insert, upsert, setTtl, update, patch, getOrInsert, get with touch, deletes, unit of work, deleteMany', async () => {
      const docs = opened.db.repository(Doc);
      await docs.insert(doc('a'), { ttl: 60 });
      await expectInStep('a', 'insert');
      await docs.upsert(doc('b'), { ttl: 'never' });
      await expectInStep('b', 'upsert never');
      await docs.upsert(doc('b'), { ttl: 'keep' });
      await expectInStep('b', 'upsert keep');
      await docs.upsert(doc('c'), { ttl: 30 });
      await expectInStep('c', 'upsert ttl');
      await docs.upsert(doc('c'), { ttl: { extend: 100 } });
      await expectInStep('c', 'upsert extend');
      await docs.upsert(doc('d'), { ttl: { at: new Date(Date.now() + 50_000) } });
      await expectInStep('d', 'upsert at');
      await docs.setTtl('b', 120);
      await expectInStep('b', 'setTtl seconds');
      await docs.setTtl('b', 'never');
      await expectInStep('b', 'setTtl never');
      await docs.setTtl('a', { extend: 500 });
      await expectInStep('a', 'setTtl extend');
      await docs.update(doc('a', 'zed', 1), { ttl: 40 });
      await expectInStep('a', 'update');
      await docs.patch('a', { owner: 'kim' }, { ttl: 5000 });
      await expectInStep('a', 'patch');
      await docs.getOrInsert(doc('e'), { ttl: 70 });
      await expectInStep('e', 'getOrInsert');
      await docs.get('e', { touch: 8000 });
      await expectInStep('e', 'get with touch');
      await docs.delete('d');
      await expectInStep('d', 'delete');
      const version = (await docs.get('e'))!.version;
      await docs.delete('e', { ifVersion: version });
      await expectInStep('e', 'delete ifVersion');
      // One unit of work per record: on a cluster a unit stays in one slot (these have no partition).
      await opened.db.unitOfWork().upsert(doc('f'), { ttl: 80 }).commit();
      await opened.db.unitOfWork().upsert(doc('g'), { ttl: 'never' }).commit();
      await expectInStep('f', 'unit of work upsert');
      await expectInStep('g', 'unit of work upsert never');
      await opened.db.unitOfWork().delete(Doc, 'g').commit();
      await expectInStep('g', 'unit of work delete');
      await docs.upsert(doc('h', 'bulk'));
      await docs.upsert(doc('i', 'bulk'), { ttl: 'never' });
      expect(await docs.deleteMany({ owner: 'bulk' })).toBe(2);
      await expectInStep('h', 'deleteMany');
      await expectInStep('i', 'deleteMany never');
      expect(await docs.count()).toBe(4);
    });
  });
}
