/**
 * The index walk of findPage / iterate / deleteMany (index-scan.ts) past the small cases of
 * index-pages.test.ts: indexes of more than 128 members (a hash table, not a listpack, so ZSCAN
 * takes several steps and a page is cut inside one), an index that turns from a listpack into a
 * hash table in the middle of a walk, a record whose expiry was changed by hand after its index
 * member fell due, the round trips of a selective filter, and a cursor of the other layout
 * (one server / cluster).
 */
import 'reflect-metadata';
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
  type Page,
  type Repository,
  type StoreContext,
} from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { serverIndexKey, slotIndexKey } from '../../src/providers/redis/collection-index';
import { cutAt, MAX_SKIP_BYTES, memberDigest } from '../../src/providers/redis/index-position';
import { hashSlot } from '../../src/providers/redis/slots';
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH } from '../../src/runtime/cursor';
import { openStore, type OpenedStore } from '../harness/open-store';
import type { TestRedisClient } from '../harness/redis';
import type { TestRedisCluster } from '../harness/redis-cluster';
import { describeStore } from '../harness/stores';
import { commandSpy, type CommandSpy } from './command-spy';

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
  @Field() kind = '';
}

/** Its own collection, so its index starts small (a sorted set never goes back to a listpack). */
@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Growing {
  @PartitionKey() sensor = '';
  @ClusteringKey() seq = 0;
}

/** Growing's twin in a collection of its own: walked with no filter (on one server no script: server-index-walk.ts). */
@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Grown {
  @PartitionKey() sensor = '';
  @ClusteringKey() seq = 0;
}

const model = () =>
  new ModelBuilder()
    .entity(Job, (e) => e.toCollection('job'))
    .entity(Sample, (e) => e.toCollection('sample'))
    .entity(Growing, (e) => e.toCollection('grow'))
    .entity(Grown, (e) => e.toCollection('grown'))
    .build();
const job = (id: string, owner = 'ann') => Object.assign(new Job(), { id, owner });
const sample = (sensor: string, seq: number, kind = 'plain') => Object.assign(new Sample(), { sensor, seq, kind });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every page of one walk (bounded, so a cursor that never ends fails the test). */
async function walk<T>(repo: Repository<T>, where: Partial<T>, limit: number, first?: string): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor = first;
  do {
    const page = await repo.findPage(where, cursor === undefined ? { limit } : { limit, cursor });
    pages.push(page);
    cursor = page.cursor;
    if (pages.length > 5000) throw new Error('findPage() kept returning a cursor');
  } while (cursor !== undefined);
  return pages;
}

async function failure(run: () => Promise<unknown>): Promise<LifespanError> {
  try {
    await run();
  } catch (error) {
    return error as LifespanError;
  }
  throw new Error('expected a failure');
}

async function insertAll<T>(repo: Repository<T>, rows: T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) await Promise.all(rows.slice(i, i + 100).map((r) => repo.insert(r)));
}

test('a position whose skipped members would make the cursor too long drops the carried ones', () => {
  const long = Array.from({ length: 100 }, (_, i) => `${'x'.repeat(2000)}${i}`);
  const cut = cutAt({ z: 0, c: '42', s: [], k: long }, ['a']);
  expect(cut).toEqual({ z: 0, c: '42', s: [memberDigest('a')], h: 1 });
  const scope = { store: 'redis', entity: 'Job', collection: 'job', where: {} };
  const kept = cutAt({ z: 0, c: '42', s: [], k: long.slice(0, 60) }, ['a']);
  expect(kept.k).toHaveLength(60);
  expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(MAX_SKIP_BYTES + 100);
  expect(encodeCursor(scope, kept).length).toBeLessThan(MAX_CURSOR_LENGTH);
  expect(cutAt({ z: 3, c: '42', s: ['a'], k: ['b'] }, ['c'])).toEqual({
    z: 3,
    c: '42',
    s: ['a', memberDigest('c')],
    k: ['b'],
    h: 1,
  });
});

for (const store of ['redis', 'redis-cluster'] as const) {
  describeStore(store, `the collection index walk past small indexes [${store}]`, () => {
    let opened: OpenedStore;
    let prefix: string;
    let spy: CommandSpy;
    let db: StoreContext;
    const send = (key: string, args: string[]) => {
      const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
      return cluster ? cluster.sendCommand(key, false, args) : (opened.raw.redis as TestRedisClient).sendCommand(args);
    };
    /** The index that lists the records of partition `sensor` of `collection` (one slot's on a cluster). */
    const indexOf = (collection: string, sensor: string) =>
      store === 'redis'
        ? serverIndexKey(prefix, collection)
        : slotIndexKey(prefix, collection, hashSlot(`${prefix}${collection}:{${sensor}}:0`));
    const encoding = (index: string) => send(index, ['OBJECT', 'ENCODING', index]);

    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `iwk${process.pid}` });
      prefix = opened.raw.prefix as string;
      spy = commandSpy(opened);
      db = await connect(model(), new RedisStore({ client: spy.client, prefix }));
    }, 120_000);
    afterAll(async () => {
      await db.close();
      await opened.close();
    });

    test('a record whose expiry was extended by hand after its index member fell due is found and deleted', async () => {
      const jobs = db.repository(Job);
      await jobs.insert(job('kept'), { ttl: 1 });
      await jobs.count();
      const key = `${prefix}job:kept`;
      await send(key, ['EXPIRE', key, '3600']);
      await sleep(1300);
      expect((await jobs.get('kept'))?.id).toBe('kept');
      expect((await jobs.findPage({}, { limit: 10 })).items.map((j) => j.id)).toEqual(['kept']);
      const seen: string[] = [];
      for await (const j of jobs.iterate({}, { pageSize: 3 })) seen.push(j.id);
      expect(seen).toEqual(['kept']);
      expect(await jobs.deleteMany({}, { all: true })).toBe(1);
      expect(await jobs.get('kept')).toBeUndefined();
    }, 60_000);

    test('a walk over 300 records (a hash-table index: pages cut inside ZSCAN steps) gives each record once', async () => {
      const samples = db.repository(Sample);
      await insertAll(
        samples,
        Array.from({ length: 300 }, (_, i) => sample('big', i, i % 3 === 0 ? 'third' : 'plain')),
      );
      expect(await encoding(indexOf('sample', 'big'))).toBe('skiplist');
      const all = Array.from({ length: 300 }, (_, i) => i);
      // The partition (ZSCAN MATCH, in a script) and no filter (on one server ZSCAN and MGET with no script).
      for (const where of [{ sensor: 'big' }, {}]) {
        for (const limit of [7, 64, 1000]) {
          const pages = await walk(samples, where, limit);
          const seqs = pages.flatMap((p) => p.items.map((s) => s.seq));
          expect(pages.every((p) => p.items.length <= limit)).toBe(true);
          expect(seqs.length).toBe(300);
          expect([...seqs].sort((a, b) => a - b)).toEqual(all);
        }
      }
      const thirds = (await walk(samples, { sensor: 'big', kind: 'third' }, 5)).flatMap((p) =>
        p.items.map((s) => s.seq),
      );
      expect([...thirds].sort((a, b) => a - b)).toEqual(all.filter((i) => i % 3 === 0));
      const seen: number[] = [];
      for await (const s of samples.iterate({ sensor: 'big' }, { pageSize: 11 })) seen.push(s.seq);
      expect([...seen].sort((a, b) => a - b)).toEqual(all);
      expect(await samples.deleteMany({ sensor: 'big', kind: 'third' }, { batchSize: 9 })).toBe(100);
      expect(await samples.count({ sensor: 'big' })).toBe(200);
      expect(await samples.deleteMany({ sensor: 'big' }, { batchSize: 13 })).toBe(200);
      expect(await samples.count({ sensor: 'big' })).toBe(0);
    }, 120_000);

    test('a page resumed after the records it handed out last were deleted still gives every record once', async () => {
      // The resumed step never meets the deleted members' digests, so each of its members is
      // checked (server-index-walk.ts stops checking once every digest has been met).
      const samples = db.repository(Sample);
      const all = Array.from({ length: 300 }, (_, i) => i);
      // No filter (on one server ZSCAN and MGET with no script) and the partition (a script).
      for (const where of [{}, { sensor: 'del' }]) {
        await insertAll(
          samples,
          all.map((i) => sample('del', i)),
        );
        const seqs: number[] = [];
        let deleted = 0;
        let cursor: string | undefined;
        do {
          const page = await samples.findPage(where, cursor === undefined ? { limit: 7 } : { limit: 7, cursor });
          seqs.push(...page.items.map((s) => s.seq));
          const last = page.items[page.items.length - 1];
          if (last !== undefined && (await samples.delete({ sensor: 'del', seq: last.seq }))) deleted += 1;
          cursor = page.cursor;
        } while (cursor !== undefined);
        expect(seqs.length).toBe(300);
        expect([...seqs].sort((a, b) => a - b)).toEqual(all);
        expect(await samples.count({ sensor: 'del' })).toBe(300 - deleted);
        await samples.deleteMany({ sensor: 'del' }, { all: true });
      }
    }, 120_000);

    test.each([
      ['the partition', Growing, 'grow', { sensor: 'g' }],
      ['no filter', Grown, 'grown', {}],
    ] as const)(
      'records handed out from a small index do not come again once it grows into a hash table mid-walk (%s)',
      async (_, entity, collection, where) => {
        const grows = db.repository(entity as typeof Growing);
        const make = (seq: number) => Object.assign(new entity(), { sensor: 'g', seq }) as Growing;
        await insertAll(
          grows,
          Array.from({ length: 110 }, (_, i) => make(i)),
        );
        await grows.count();
        expect(await encoding(indexOf(collection, 'g'))).toBe('listpack');
        const seen: number[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 50; page++) {
          const got: Page<Growing> = await grows.findPage(where, cursor ? { limit: 1, cursor } : { limit: 1 });
          seen.push(...got.items.map((s) => s.seq));
          cursor = got.cursor;
        }
        expect(cursor).toBeDefined();
        await insertAll(
          grows,
          Array.from({ length: 200 }, (_, i) => make(1000 + i)),
        );
        expect(await encoding(indexOf(collection, 'g'))).toBe('skiplist');
        const rest = await walk(grows, where, 1, cursor);
        seen.push(...rest.flatMap((p) => p.items.map((s) => s.seq)));
        // Each record once; the 110 stored throughout all found (and here the 200 added too: the hash table is walked from its start).
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.length).toBe(310);
        for (let i = 0; i < 110; i++) expect(seen).toContain(i);
      },
      120_000,
    );

    test('a filter that most records fail costs a round trip per index step, not per record', async () => {
      const jobs = db.repository(Job);
      await insertAll(
        jobs,
        Array.from({ length: 1000 }, (_, i) => job(`r${i}`, i % 100 === 0 ? 'rare' : 'common')),
      );
      await jobs.count();
      spy.reset();
      const pages = await walk(jobs, { owner: 'rare' }, 1);
      const ids = pages.flatMap((p) => p.items.map((j) => j.id));
      expect([...ids].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `r${i * 100}`).sort());
      // Before: a script (and on one server an MGET) per record read, about 1,000 of each; now about 13 each.
      // A cluster walks 16,384 slot indexes: one script per run of slots of one primary, more when a page is cut in one.
      expect(spy.total()).toBeLessThanOrEqual(store === 'redis' ? 40 : 60);
      await jobs.deleteMany({}, { all: true });
    }, 120_000);

    test('a cursor of the other layout (one server / cluster) is CURSOR_INVALID, not a walk that ends early', async () => {
      const jobs = db.repository(Job);
      await insertAll(
        jobs,
        Array.from({ length: 5 }, (_, i) => job(`c${i}`)),
      );
      const scope = { store: 'redis', entity: 'Job', collection: 'job', where: {} };
      const other = store === 'redis' ? 'c' : 's';
      const refused = [
        { z: 0, c: '0', s: [], l: other },
        { z: 0, c: '0', s: [], l: 'x' },
      ];
      // An untagged cursor of a slot other than 0 can only be a cluster's.
      if (store === 'redis') refused.push({ z: 5, c: '0', s: [] } as (typeof refused)[number]);
      for (const position of refused) {
        const error = await failure(() => jobs.findPage({}, { cursor: encodeCursor(scope, position) }));
        expect(error).toBeInstanceOf(LifespanError);
        expect({ code: error.code, store: error.store }).toEqual({ code: 'CURSOR_INVALID', store: 'redis' });
      }
      // Untagged cursors issued before the tag still resume; the store's own cursors resume.
      const untagged = await walk(jobs, {}, 2, encodeCursor(scope, { z: 0, c: '0', s: [] }));
      expect(untagged.flatMap((p) => p.items.map((j) => j.id)).sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
      const own = await walk(jobs, {}, 2);
      expect(decodeCursor(own[0]?.cursor, scope)).toMatchObject({ l: store === 'redis' ? 's' : 'c' });
      expect(own.flatMap((p) => p.items.map((j) => j.id)).sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
      await jobs.deleteMany({}, { all: true });
    });
  });
}
