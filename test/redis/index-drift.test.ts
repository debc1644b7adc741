/**
 * The collection index against changes made outside lifespan (keys deleted or re-timed by hand, the
 * index itself lost) and against its own size: reads answer what the database holds, in bounded
 * steps.
 */
import 'reflect-metadata';
import { connect, Entity, Field, Key, ModelBuilder, TimeToLive } from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { serverIndexKey, slotIndexKey } from '../../src/providers/redis/collection-index';
import type { RedisClientLike } from '../../src/providers/redis/gateway';
import { hashSlot } from '../../src/providers/redis/slots';
import { describeStore } from '../harness/stores';
import { openStore, type OpenedStore } from '../harness/open-store';
import type { TestRedisCluster } from '../harness/redis-cluster';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Doc {
  @Key() id = '';
  @Field() owner = '';
}

const model = () => new ModelBuilder().entity(Doc, (e) => e.toCollection('doc')).build();
const doc = (id: string, owner = 'ann') => Object.assign(new Doc(), { id, owner });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const store of ['redis', 'redis-cluster'] as const) {
  describeStore(store, `collection index against outside changes [${store}]`, () => {
    let opened: OpenedStore;
    let prefix: string;
    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `dr${process.pid}` });
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
    const keyOf = (id: string) => `${prefix}doc:${id}`;
    const indexOf = (key: string) =>
      opened.raw.redisCluster ? slotIndexKey(prefix, 'doc', hashSlot(key)) : serverIndexKey(prefix, 'doc');

    test('a record whose expiry was extended outside lifespan stays found after a write prunes the index', async () => {
      const docs = opened.db.repository(Doc);
      // The index is built first (a first read builds it with a walk that would re-add ext1).
      await docs.count();
      await docs.upsert(doc('ext1', 'ext'), { ttl: 1 });
      await send(keyOf('ext1'), ['EXPIRE', keyOf('ext1'), '3600']);
      await sleep(1200);
      // A record in ext1's index (on a cluster: of ext1's slot), so its write prunes that index.
      let near = 0;
      while (indexOf(keyOf(`ext2-${near}`)) !== indexOf(keyOf('ext1'))) near += 1;
      await docs.upsert(doc(`ext2-${near}`, 'ext'), { ttl: 600 });
      expect(await docs.count({ owner: 'ext' })).toBe(2);
      expect((await docs.find({ owner: 'ext' })).map((d) => d.id).sort()).toEqual(['ext1', `ext2-${near}`]);
      await docs.deleteMany({ owner: 'ext' });
    });

    test('a +inf record deleted outside lifespan is not counted, and leaves the index free to expire', async () => {
      const docs = opened.db.repository(Doc);
      await docs.upsert(doc('gone', 'ghost'), { ttl: 'never' });
      await docs.count();
      await send(keyOf('gone'), ['DEL', keyOf('gone')]);
      const forecast = (await opened.db.expiryForecast()).entries[0];
      expect(forecast).toMatchObject({ exact: true, never: 0 });
      const [step] = (await opened.db.plan({ counts: true })).steps;
      expect(step?.effect?.text ?? '').not.toMatch(/and 1 have none/);
      // A write to the same index drops the gone +inf member and gives the index an expiry again.
      const idx = indexOf(keyOf('gone'));
      if (!opened.raw.redisCluster) {
        await docs.upsert(doc('later'), { ttl: 60 });
        expect(await send(idx, ['ZSCORE', idx, keyOf('gone')])).toBeNull();
        expect(Number(await send(idx, ['PTTL', idx]))).toBeGreaterThan(0);
        await docs.delete('later');
      }
    });

    test('count() and find() read the index in bounded pages', async () => {
      const replies: number[] = [];
      const base = (opened.raw.redisCluster ?? opened.raw.redis) as unknown;
      const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
      let betweenPages: ((cursorKey: string) => Promise<void>) | undefined;
      const measure = async (reply: Promise<unknown>) => {
        const got = await reply;
        if (Array.isArray(got)) replies.push(got.length);
        const hook = betweenPages;
        if (hook && Array.isArray(got) && got.length > 1000) {
          betweenPages = undefined;
          await hook(String(got[1]));
        }
        return got;
      };
      const client = cluster
        ? {
            sendCommand: (k: string | undefined, ro: boolean | undefined, args: string[]) =>
              measure(cluster.sendCommand(k as string, ro as boolean, args)),
            get masters() {
              return (base as { masters: unknown }).masters;
            },
            get slots() {
              return (base as { slots: unknown }).slots;
            },
            nodeClient: async (node: unknown) => {
              const inner = await (base as { nodeClient(n: unknown): Promise<RedisClientLike> }).nodeClient(node);
              return { sendCommand: (args: readonly string[]) => measure(inner.sendCommand(args)) };
            },
          }
        : { sendCommand: (args: readonly string[]) => measure((base as RedisClientLike).sendCommand(args)) };
      const db = await connect(model(), new RedisStore({ client: client as never, prefix: `${prefix}pg:` }));
      const docs = db.repository(Doc);
      for (let i = 0; i < 2500; i += 250) {
        await Promise.all(Array.from({ length: 250 }, (_, j) => docs.upsert(doc(`p${i + j}`, 'page'))));
      }
      await docs.count();
      replies.length = 0;
      expect(await docs.count()).toBe(2500);
      expect(await docs.find({ owner: 'page' })).toHaveLength(2500);
      expect(Math.max(...replies)).toBeLessThanOrEqual(2 * 1000 + 8);
      // The cursor member re-scored between two pages (written again, no expiry: last in the index).
      const other = await connect(
        model(),
        new RedisStore({ client: (opened.raw.redisCluster ?? opened.raw.redis) as never, prefix: `${prefix}pg:` }),
      );
      betweenPages = async (cursorKey) => {
        await other
          .repository(Doc)
          .upsert(doc(cursorKey.slice(cursorKey.lastIndexOf(':') + 1), 'page'), { ttl: 'never' });
      };
      expect(await docs.count()).toBe(2500);
      expect(betweenPages).toBeUndefined();
      await other.close();
      if (!cluster) {
        // A limited find whose soonest-expiring members are gone goes on from its cursor, page by page.
        const idx = serverIndexKey(`${prefix}pg:`, 'doc');
        const first = (await send(idx, ['ZRANGE', idx, '(-inf', '+inf', 'BYSCORE', 'LIMIT', '0', '3'])) as string[];
        for (const key of first) await send(key, ['DEL', key]);
        replies.length = 0;
        expect(await docs.find({}, { limit: 5 })).toHaveLength(5);
        // A reply: position, member, score, now, the members found gone (one array), then key, value pairs.
        expect(Math.max(...replies)).toBeLessThanOrEqual(5 + 2 * 5);
      }
      await docs.deleteMany({}, { all: true });
      await db.close();
    }, 60_000);

    test('a lost index (evicted, DEL) is rebuilt, not read as an empty collection', async () => {
      if (opened.raw.redisCluster) return;
      const docs = opened.db.repository(Doc);
      await docs.upsert(doc('kept1'));
      await docs.upsert(doc('kept2'));
      expect(await docs.count()).toBe(2);
      const idx = serverIndexKey(prefix, 'doc');
      await send(idx, ['DEL', idx]);
      expect(await docs.count()).toBe(2);
      const fresh = await connect(model(), new RedisStore({ client: opened.raw.redis as never, prefix }));
      await send(idx, ['DEL', idx]);
      await fresh.repository(Doc).upsert(doc('kept3'));
      expect(await fresh.repository(Doc).count()).toBe(3);
      await fresh.close();
      await docs.deleteMany({}, { all: true });
    });

    test('concurrent first reads share one index build', async () => {
      if (opened.raw.redisCluster) return;
      const raw = opened.raw.redis as unknown as RedisClientLike;
      let scans = 0;
      const spy = {
        sendCommand(args: readonly string[]) {
          if (String(args[0]).toUpperCase() === 'SCAN') scans += 1;
          return raw.sendCommand(args);
        },
      };
      const legacy = `${prefix}herd:`;
      await raw.sendCommand(['SET', `${legacy}doc:old`, JSON.stringify({ id: 'old', owner: 'z' }), 'EX', '600']);
      const walk = async (p: string, reads: number) => {
        const db = await connect(model(), new RedisStore({ client: spy, prefix: p }));
        const before = scans;
        const counts = await Promise.all(Array.from({ length: reads }, () => db.repository(Doc).count()));
        await db.close();
        return { counts, scans: scans - before };
      };
      await raw.sendCommand(['SET', `${legacy}one:doc:old`, JSON.stringify({ id: 'old', owner: 'z' }), 'EX', '600']);
      const one = await walk(`${legacy}one:`, 1);
      const many = await walk(legacy, 10);
      expect(many.counts).toEqual(Array.from({ length: 10 }, () => 1));
      expect(many.scans).toBe(one.scans);
    });
  });
}
