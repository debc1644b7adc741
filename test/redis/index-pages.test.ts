/**
 * findPage / iterate / deleteMany on Redis (one server and Redis Cluster) walk the collection
 * index, not the database: a walk over a collection of 10 records sends the same commands whether
 * the database around it holds 20,000 other keys or none, and no SCAN. Pages stay resumable as
 * records are rewritten (their index score moves), a filter on the partition walks its own slot,
 * a SCAN cursor made before the index still resumes, and an index lost mid-walk is built again.
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
import { encodeCursor } from '../../src/runtime/cursor';
import { openStore, type OpenedStore } from '../harness/open-store';
import type { TestRedisClient } from '../harness/redis';
import type { TestRedisCluster } from '../harness/redis-cluster';
import { describeStore } from '../harness/stores';
import { commandSpy, type CommandSpy } from './command-spy';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Ticket {
  @Key() id = '';
  @Field() owner = '';
}

@Entity()
class Reading {
  @PartitionKey() sensor = '';
  @ClusteringKey() seq = 0;
}

const model = () =>
  new ModelBuilder()
    .entity(Ticket, (e) => e.toCollection('ticket'))
    .entity(Reading, (e) => e.toCollection('reading'))
    .build();
const ticket = (id: string, owner = 'ann') => Object.assign(new Ticket(), { id, owner });
const reading = (sensor: string, seq: number) => Object.assign(new Reading(), { sensor, seq });
const TEN = Array.from({ length: 10 }, (_, i) => `t${i}`);

const FOREIGN = 20_000;

/** Every page of one walk (bounded, so a cursor that never ends fails the test). */
async function walk<T>(repo: Repository<T>, where: Partial<T>, limit: number, first?: string): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor = first;
  do {
    const page = await repo.findPage(where, cursor === undefined ? { limit } : { limit, cursor });
    pages.push(page);
    cursor = page.cursor;
    if (pages.length > 100) throw new Error('findPage() kept returning a cursor');
  } while (cursor !== undefined);
  return pages;
}

const idsOf = (pages: Page<Ticket>[]) => pages.flatMap((p) => p.items.map((t) => t.id));

async function failure(run: () => Promise<unknown>): Promise<LifespanError> {
  try {
    await run();
  } catch (error) {
    return error as LifespanError;
  }
  throw new Error('expected a failure');
}

for (const store of ['redis', 'redis-cluster'] as const) {
  describeStore(store, `findPage / iterate / deleteMany over the collection index [${store}]`, () => {
    let opened: OpenedStore;
    let prefix: string;
    let spy: CommandSpy;
    let db: StoreContext;
    const send = (key: string, args: string[]) => {
      const cluster = opened.raw.redisCluster as TestRedisCluster | undefined;
      return cluster ? cluster.sendCommand(key, false, args) : (opened.raw.redis as TestRedisClient).sendCommand(args);
    };
    /** Keys that are not lifespan's, under the test's prefix (one slot each key on a cluster); 'DEL' removes them again. */
    const foreign = async (command: 'SET' | 'DEL') => {
      const names = Array.from({ length: FOREIGN }, (_, i) => `${prefix}foreign:${i}`);
      for (let i = 0; i < names.length; i += 1000) {
        await Promise.all(
          names.slice(i, i + 1000).map((k) => send(k, command === 'SET' ? ['SET', k, 'x'] : ['DEL', k])),
        );
      }
    };

    beforeAll(async () => {
      opened = await openStore(store, model(), { prefix: `ixp${process.pid}` });
      prefix = opened.raw.prefix as string;
      spy = commandSpy(opened);
      db = await connect(model(), new RedisStore({ client: spy.client, prefix }));
      const tickets = db.repository(Ticket);
      for (const [i, id] of TEN.entries()) await tickets.insert(ticket(id, i % 2 === 0 ? 'ann' : 'bob'));
    }, 120_000);
    afterAll(async () => {
      await db.close();
      await opened.close();
    });

    test('a findPage walk sends the same commands among 20,000 other keys as among none, and no SCAN', async () => {
      const tickets = db.repository(Ticket);
      // The first walk makes the index complete once (as a first count() does): not what is measured.
      expect([...new Set(idsOf(await walk(tickets, {}, 3)))].sort()).toEqual(TEN);
      spy.reset();
      const alone = idsOf(await walk(tickets, {}, 3));
      const without = new Map(spy.sent);
      await foreign('SET');
      spy.reset();
      const among = idsOf(await walk(tickets, {}, 3));
      const withForeign = new Map(spy.sent);
      // Gone again at once: suites that SCAN the same servers meanwhile do not walk them.
      await foreign('DEL');
      expect(withForeign).toEqual(without);
      expect(spy.count('SCAN')).toBe(0);
      // One server: per page (4 pages of 3) a ZSCAN and an MGET, and the INFO sent with the ZSCAN that
      // names the process (cursor-origin.ts); a cluster: one script per run of slots of one primary.
      expect(spy.total()).toBeLessThanOrEqual(store === 'redis' ? 12 : 40);
      for (const seen of [alone, among]) {
        expect(new Set(seen).size).toBe(seen.length);
        expect([...seen].sort()).toEqual(TEN);
      }
    }, 120_000);

    test('iterate() and a filtered findPage give each record once; pages hold at most their limit', async () => {
      const tickets = db.repository(Ticket);
      spy.reset();
      const seen: string[] = [];
      for await (const t of tickets.iterate({}, { pageSize: 4 })) seen.push(t.id);
      expect(seen.sort()).toEqual(TEN);
      const bob = await walk(tickets, { owner: 'bob' }, 2);
      expect(bob.every((p) => p.items.length <= 2)).toBe(true);
      expect(idsOf(bob).sort()).toEqual(['t1', 't3', 't5', 't7', 't9']);
      expect(spy.count('SCAN')).toBe(0);
    });

    test('records rewritten mid-walk (their index score moves either way) are still found, and the walk ends', async () => {
      const tickets = db.repository(Ticket);
      const seen: string[] = [];
      let n = 0;
      for await (const t of tickets.iterate({}, { pageSize: 2 })) {
        seen.push(t.id);
        // A later expiry for one, an earlier one for the next: a walk in score order would meet them again or lose them.
        await tickets.upsert(t, { ttl: n++ % 2 === 0 ? 7200 : 60 });
        if (seen.length > 40) throw new Error('iterate() did not end');
      }
      expect([...new Set(seen)].sort()).toEqual(TEN);
      expect(new Set(seen).size).toBe(seen.length);
    });

    test('a filter with the partition walks that partition only (on a cluster, its one slot)', async () => {
      const readings = db.repository(Reading);
      for (let seq = 1; seq <= 5; seq++) {
        await readings.insert(reading('s1', seq));
        await readings.insert(reading('s2', seq));
      }
      await readings.count();
      spy.reset();
      const pages = await walk(readings, { sensor: 's1' }, 2);
      const seqs = pages.flatMap((p) => p.items.map((r) => `${r.sensor}/${r.seq}`));
      expect(seqs.sort()).toEqual(['s1/1', 's1/2', 's1/3', 's1/4', 's1/5']);
      expect(spy.count('SCAN')).toBe(0);
      // A script (and on one server an MGET) per page.
      expect(spy.total()).toBeLessThanOrEqual(2 * pages.length);
    });

    test('deleteMany reads the index (value and expiry in its script): no SCAN, only the matches deleted', async () => {
      const tickets = db.repository(Ticket);
      for (let i = 0; i < 6; i++) await tickets.insert(ticket(`tmp${i}`, 'tmp'));
      spy.reset();
      expect(await tickets.deleteMany({ owner: 'tmp' }, { batchSize: 4 })).toBe(6);
      expect(spy.count('SCAN')).toBe(0);
      expect(await tickets.count()).toBe(10);
      expect(await tickets.count({ owner: 'tmp' })).toBe(0);
    });

    test('a SCAN cursor made before the index still resumes its walk; an index position resumes; a broken one is CURSOR_INVALID', async () => {
      const tickets = db.repository(Ticket);
      const scope = { store: 'redis', entity: 'Ticket', collection: 'ticket', where: {} };
      const scanned = idsOf(await walk(tickets, {}, 1000, encodeCursor(scope, { n: 0, c: '0', s: [] })));
      expect([...new Set(scanned)].sort()).toEqual(TEN);
      const resumed = idsOf(await walk(tickets, {}, 3, encodeCursor(scope, { z: 0, c: '0', s: ['t0'] })));
      expect([...new Set(resumed)].sort()).toEqual(store === 'redis' ? TEN.slice(1) : TEN);
      for (const position of [
        { z: 16384, c: '0', s: [] },
        { z: 0, c: 'x', s: [] },
        { z: 0, c: '18446744073709551616', s: [] },
        { z: 0, c: '0', s: [1] },
        { z: 0, c: '0' },
      ]) {
        const error = await failure(() => tickets.findPage({}, { cursor: encodeCursor(scope, position) }));
        expect(error).toBeInstanceOf(LifespanError);
        expect({ code: error.code, store: error.store }).toEqual({ code: 'CURSOR_INVALID', store: 'redis' });
      }
    });

    if (store === 'redis') {
      test('an index lost mid-walk (a stray DEL) is built again: the walk still finds every record', async () => {
        const tickets = db.repository(Ticket);
        const first = await tickets.findPage({}, { limit: 3 });
        await send(`${prefix}{lifespan}:index:ticket`, ['DEL', `${prefix}{lifespan}:index:ticket`]);
        const rest = idsOf(await walk(tickets, {}, 3, first.cursor));
        expect([...new Set([...first.items.map((t) => t.id), ...rest])].sort()).toEqual(TEN);
        spy.reset();
        expect([...new Set(idsOf(await walk(tickets, {}, 5)))].sort()).toEqual(TEN);
        expect(spy.count('SCAN')).toBe(0);
      });

      test('an index lost mid-walk and written to again (without its built member) is found out: every record still comes', async () => {
        const tickets = db.repository(Ticket);
        const first = await tickets.findPage({}, { limit: 3 });
        const index = `${prefix}{lifespan}:index:ticket`;
        await send(index, ['DEL', index]);
        // The write puts its own member back, in an index that lacks every other record.
        await tickets.upsert(ticket('t0'));
        const rest = idsOf(await walk(tickets, {}, 3, first.cursor));
        expect([...new Set([...first.items.map((t) => t.id), ...rest])].sort()).toEqual(TEN);
      });

      test('a large index (a hash table) lost mid-walk and written to again is found out where its walk ends', async () => {
        const readings = db.repository(Reading);
        for (let seq = 0; seq < 300; seq += 50) {
          await Promise.all(Array.from({ length: 50 }, (_, i) => readings.upsert(reading('big', seq + i))));
        }
        const name = (r: Reading) => `${r.sensor}/${r.seq}`;
        const all = new Set((await walk(readings, {}, 1000)).flatMap((p) => p.items.map(name)));
        expect(all.size).toBeGreaterThanOrEqual(300);
        const first = await readings.findPage({}, { limit: 40 });
        const index = `${prefix}{lifespan}:index:reading`;
        await send(index, ['DEL', index]);
        // 150 writes: an index again, past zset-max-listpack-entries (a hash table ZSCAN walks by cursor), without the built member.
        for (let seq = 0; seq < 150; seq += 50) {
          await Promise.all(Array.from({ length: 50 }, (_, i) => readings.upsert(reading('big', seq + i))));
        }
        const rest = (await walk(readings, {}, 40, first.cursor)).flatMap((p) => p.items.map(name));
        expect(new Set([...first.items.map(name), ...rest])).toEqual(all);
        await readings.deleteMany({ sensor: 'big' }, { all: true });
      }, 60_000);
    }
  });
}
