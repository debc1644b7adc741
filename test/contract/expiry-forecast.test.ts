/**
 * Issue 25, finding 2: "see when records expire". db.expiryForecast() counts, per entity, the
 * stored records that are due but still stored, expire within each bucket, and never expire,
 * checked here against a hand count of seeded records on every store of the contract table:
 * exactly (aggregates, and walks under their cap) and sampled (a walk whose cap is below the count).
 */
import 'reflect-metadata';
import {
  CreatedAt,
  Entity,
  Field,
  Key,
  ModelBuilder,
  TimeToLive,
  type EntityForecast,
  type PerWriteTtl,
} from '../../src';
import type { MemoryDb } from '../mongodb/fake/memory-db';
import type { Capabilities } from './capabilities';
import { forEachStore } from './stores';

const prefix = `fc${process.pid % 10000}`;

@Entity()
@TimeToLive({ ttl: '30d', perWrite: true })
class Ticket {
  @Key() id = '';
  @Field() note = '';
  @CreatedAt() createdAt = new Date(0);
}

@Entity()
class Untimed {
  @Key() id = '';
  @Field() note = '';
}

const model = new ModelBuilder()
  .entity(Ticket, (e) => e.toCollection(`${prefix}_ticket`))
  .entity(Untimed, (e) => e.toCollection(`${prefix}_untimed`))
  .build();

const ticket = (id: string) => Object.assign(new Ticket(), { id, note: 'n' });

/** The seed, by hand: [per-write TTL, how many]; the expected bucket of each is its comment. */
const SEED: Array<[PerWriteTtl, number]> = [
  [600, 3], // within 1h
  [7200, 2], // 1h–1d
  [3 * 86400, 1], // 1d–7d
  [10 * 86400, 2], // 7d–30d
  [40 * 86400, 1], // later
  ['never', 2],
];
const HAND_COUNT = { buckets: [3, 2, 1, 2, 1], never: 2, live: 11 };

/** Stores where a due record stays stored (and is counted as due) until its store or purge removes it. */
const DUE_STAYS: Record<string, boolean> = {
  sqlite: true,
  postgres: true,
  mariadb: true,
  // The protocol server stores ttl but never expires anything (the service hides expired items at once).
  cosmos: true,
  'cosmos-live': false,
  'mongodb-fake': true,
  'mongodb-live': true,
  redis: false,
  'redis-cluster': false,
  cassandra: false,
};

/**
 * Whether the forecast of this suite's entity walks its records: where the store has no aggregate
 * over expiry (its descriptor's forecastWalks), and on Redis while the collection's index is not
 * complete: this suite writes its records and never reads them by find() or count() (which
 * completes the index), so Redis walks them with SCAN (on a cluster every primary, as scanKeys walks).
 */
const walks = (can: Capabilities): boolean => can.forecastWalks === true || can.storeName === 'redis';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function of(entries: readonly EntityForecast[], entity: string): EntityForecast {
  const found = entries.find((e) => e.entity === entity);
  if (!found) throw new Error(`no forecast for ${entity}`);
  return found;
}

forEachStore('expiryForecast()', model, prefix, (store, db, raw) => {
  beforeAll(async () => {
    const repo = db().repository(Ticket);
    let n = 0;
    for (const [ttl, count] of SEED) {
      for (let i = 0; i < count; i++) await repo.insert(ticket(`t${n++}`), { ttl });
    }
    await repo.insert(ticket('due'), { ttl: 1 });
    await db()
      .repository(Untimed)
      .insert(Object.assign(new Untimed(), { id: 'u1', note: 'n' }));
    const fake = raw()?.mongo as MemoryDb | undefined;
    if (store.name === 'mongodb-fake' && fake) fake.advance(3);
    else await sleep(2200);
  });

  test('counts every stored record into its bucket, as counted by hand', async () => {
    const report = await db().expiryForecast();
    const f = of(report.entries, 'Ticket');
    const due = DUE_STAYS[store.name] ? 1 : 0;
    expect(f.store).toBe(store.can.storeName);
    expect(f.exact).toBe(true);
    expect(f.method).toBe(walks(store.can) ? 'walk' : 'aggregate');
    expect(f.buckets.map((b) => b.label)).toEqual(['within 1h', '1h–1d', '1d–7d', '7d–30d', 'later']);
    expect(f.buckets.map((b) => b.count)).toEqual(HAND_COUNT.buckets);
    expect(f.never).toBe(HAND_COUNT.never);
    expect(f.due).toBe(due);
    expect(f.read).toBe(HAND_COUNT.live + due);
    expect(f.cost.roundTrips).toBeGreaterThan(0);
    expect(f.cost.text.length).toBeGreaterThan(0);
    // On Redis Cluster the walk covers every primary (one node's SCAN sees a third of the keys) and says so.
    if (store.name === 'redis-cluster')
      expect(f.cost.text).toMatch(/SCAN walked the keyspace in \d+ call\(s\) on 3 cluster primaries/);
  });

  test('an entity without a TTL says so and counts nothing', async () => {
    const f = of((await db().expiryForecast()).entries, 'Untimed');
    expect(f).toMatchObject({
      method: 'none',
      exact: true,
      read: 0,
      note: 'Untimed declares no TTL: its records never expire',
    });
  });

  test('buckets are configurable: the same records in two buckets', async () => {
    const f = of((await db().expiryForecast({ buckets: ['1d'] })).entries, 'Ticket');
    expect(f.buckets.map((b) => [b.label, b.count])).toEqual([
      ['within 1d', 5],
      ['later', 4],
    ]);
  });

  test('a walk stops at its cap and says it sampled; an aggregate is exact whatever the cap', async () => {
    const f = of((await db().expiryForecast({ cap: 5 })).entries, 'Ticket');
    if (walks(store.can)) {
      expect(f.exact).toBe(false);
      expect(f.read).toBe(5);
      expect(f.due + f.never + f.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(5);
      expect(f.buckets.map((b) => b.count).every((n, i) => n <= (HAND_COUNT.buckets[i] as number))).toBe(true);
    } else {
      expect(f.exact).toBe(true);
      expect(f.read).toBe(HAND_COUNT.live + (DUE_STAYS[store.name] ? 1 : 0));
    }
  });

  test.each([
    [{ bucket: ['1h'] }, "no option 'bucket'"],
    [{ buckets: [] }, 'a list of 1 to 20 durations'],
    [{ buckets: ['1d', '1h'] }, 'must ascend'],
    [{ buckets: ['1x'] }, 'bucket 1'],
    [{ cap: 0 }, 'cap must be a whole number'],
    [{ cap: 2.5 }, 'cap must be a whole number'],
    ['1h', 'as its options'],
  ])('options %j are refused with BAD_ARGUMENT', async (options, words) => {
    await expect(db().expiryForecast(options as never)).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      store: store.can.storeName,
      message: expect.stringContaining(words),
    });
  });

  test('renders text, markdown with a bar per bucket, and JSON', async () => {
    const report = await db().expiryForecast();
    expect(report.toText()).toContain('within 1h: 3');
    const markdown = report.toMarkdown();
    expect(markdown).toContain('| within 1h | 3 | ');
    expect(markdown).toMatch(/\| 7d–30d \| 2 \| █+ \|/);
    expect(JSON.parse(report.render('json')).entries).toHaveLength(2);
  });
});
