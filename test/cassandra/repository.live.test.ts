/**
 * Reads and writes against the real node: every field type round-trips, inserts are checked,
 * filters use bound values, and a unit of work is one logged batch (conditional within a partition).
 */
import 'reflect-metadata';
import type { Client } from 'cassandra-driver';
import { Entity, ErrorCodes, Field, Key, ModelError, TimeToLive, type StoreContext } from '../../src';
import { Reading } from '../../examples/models';
import { describeStore } from '../harness/stores';
import { build, open, useTestKeyspace } from './fixtures';

@Entity('everything')
class Everything {
  @Key({ type: 'uuid' }) id = '';
  @Field() text = '';
  @Field() real = 0;
  @Field({ type: 'integer' }) whole = 0;
  @Field() big = 0n;
  @Field() flag = false;
  @Field() at = new Date(0);
  @Field({ type: 'uuid' }) ref = '';
  @Field({ type: 'json' }) doc: unknown = {};
  @Field() bytes = Buffer.alloc(0);
  @Field({ type: 'string', nullable: true, name: 'select' }) note: string | null = null;
}

@Entity('page_views')
class PageViews {
  @Key() page = '';
  @Field({ type: 'counter' }) views = 0;
}

// Reading declares perWrite here: a unit of work below commits with a TTL, which every store asks to be declared.
const model = build((b) =>
  b
    .entity(Everything)
    .entity(Reading, (e) => e.timeToLive('P30D', { perWrite: true }))
    .entity(PageViews),
);

function reading(sensorId: string, minute: number, value: number): Reading {
  return Object.assign(new Reading(), { sensorId, takenAt: new Date(Date.UTC(2026, 0, 1, 0, minute)), value });
}

describeStore('cassandra', 'cassandra repository (live)', () => {
  let client: Client;
  let keyspace: string;
  let db: StoreContext;

  useTestKeyspace('ls_repo', async (live) => {
    ({ client, keyspace } = live);
    db = await open(client, keyspace, model);
    await db.ensureCollections();
  });

  it('round-trips every field type, including a column named with a CQL keyword', async () => {
    const repo = db.repository(Everything);
    const value = Object.assign(new Everything(), {
      id: '6f1c7d2a-1b2c-4d5e-8f90-0123456789ab',
      text: 'héllo',
      real: 1.5,
      whole: -2147483648,
      big: 9007199254740993n,
      flag: true,
      at: new Date('2026-03-04T05:06:07.089Z'),
      ref: '00000000-0000-4000-8000-000000000001',
      doc: { a: [1, 'two', null], b: { c: true } },
      bytes: Buffer.from([0, 1, 255]),
      note: null,
    });
    await repo.insert(value);
    const back = await repo.get(value.id);
    expect(back).toBeInstanceOf(Everything);
    expect(back).toEqual(value);
    await repo.upsert(Object.assign(new Everything(), { ...value, note: 'set' }));
    expect((await repo.get(value.id))?.note).toBe('set');
  });

  // The store-neutral refusals (fractions, NaN, strings for numbers, dates, booleans, int64 range,
  // lone surrogates …) are the contract suite's (test/contract/values.test.ts); these are the CQL ones.
  it('refuses values a CQL column cannot hold before sending anything, naming the value', async () => {
    const repo = db.repository(Everything);
    const base = { id: '6f1c7d2a-1b2c-4d5e-8f90-000000000000', ref: '00000000-0000-4000-8000-000000000002' };
    const cases: Array<[Partial<Everything>, string]> = [
      [{ whole: 2 ** 31 }, 'whole'],
      [{ id: 'nope' }, 'id'],
      [{ text: null as unknown as string }, 'text'],
      [{ doc: undefined }, 'doc'],
    ];
    for (const [patch, member] of cases) {
      const bad = Object.assign(new Everything(), base, patch);
      await expect(repo.upsert(bad)).rejects.toMatchObject({ code: ErrorCodes.VALUE_INVALID, member });
      await expect(db.unitOfWork().insert(bad).commit()).rejects.toMatchObject({
        code: ErrorCodes.VALUE_INVALID,
        member,
      });
    }
    // A number where the string key is declared.
    const readings = db.repository(Reading);
    await expect(readings.upsert(Object.assign(reading('s0', 0, 0), { sensorId: 7 }))).rejects.toMatchObject({
      code: ErrorCodes.VALUE_INVALID,
      entity: 'Reading',
      member: 'sensorId',
    });
    expect(await repo.count()).toBe(1);
    expect(await readings.count({ sensorId: 's0' })).toBe(0);
  });

  it('finds by key prefix in clustering order and by other members with ALLOW FILTERING', async () => {
    const readings = db.repository(Reading);
    for (let m = 10; m < 15; m++) await readings.upsert(reading('s2', m, m % 2));
    await readings.upsert(reading('s3', 10, 1));
    const s2 = await readings.find({ sensorId: 's2' });
    expect(s2.map((r) => r.takenAt.getUTCMinutes())).toEqual([14, 13, 12, 11, 10]);
    expect((await readings.find({ sensorId: 's2' }, { limit: 2 })).length).toBe(2);
    expect(await readings.count({ sensorId: 's2', value: 1 })).toBe(2);
    expect(await readings.count({ value: 1 })).toBe(3);
    expect(await readings.find({ value: 1 }, { limit: 2 })).toHaveLength(2);
    await expect(readings.find({ nope: 1 } as never)).rejects.toMatchObject({ code: ErrorCodes.UNKNOWN_MEMBER });
    await expect(readings.find({}, { limit: 0 })).rejects.toMatchObject({ code: ErrorCodes.BAD_ARGUMENT });
  });

  it('commits a unit of work in one partition as a conditional batch: a duplicate writes nothing', async () => {
    const readings = db.repository(Reading);
    await readings.insert(reading('s4', 1, 1));
    const failing = db
      .unitOfWork()
      .insert(reading('s4', 2, 2))
      .upsert(reading('s4', 3, 3))
      .insert(reading('s4', 1, 100));
    await expect(failing.commit()).rejects.toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY });
    expect((await readings.find({ sensorId: 's4' })).map((r) => r.value)).toEqual([1]);

    await db
      .unitOfWork()
      .insert(reading('s4', 2, 2))
      .upsert(reading('s4', 3, 3))
      .commit({ ttl: '1h' });
    expect((await readings.find({ sensorId: 's4' })).map((r) => r.value)).toEqual([3, 2, 1]);
    const ttl = await readings.ttl({ sensorId: 's4', takenAt: new Date(Date.UTC(2026, 0, 1, 0, 2)) });
    expect(ttl).toBeGreaterThan(3590);
    expect(ttl).toBeLessThanOrEqual(3600);
  });

  it('checks inserts across partitions before the batch, and collapses operations on one row', async () => {
    const readings = db.repository(Reading);
    await readings.insert(reading('s5', 1, 1));
    await expect(
      db
        .unitOfWork()
        .insert(reading('s6', 1, 1))
        .insert(reading('s5', 1, 2))
        .commit(),
    ).rejects.toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY });
    expect(await readings.count({ sensorId: 's6' })).toBe(0);

    // In a batch every statement shares one timestamp, where a delete would win whatever the order.
    const key = { sensorId: 's7', takenAt: new Date(Date.UTC(2026, 0, 1, 0, 1)) };
    await db
      .unitOfWork()
      .insert(reading('s7', 1, 1))
      .delete(Reading, key)
      .upsert(reading('s7', 1, 7))
      .insert(reading('s8', 1, 8))
      .commit();
    expect((await readings.get(key))?.value).toBe(7);
    expect(await readings.count({ sensorId: 's8' })).toBe(1);
    await db.unitOfWork().delete(Reading, key).delete(Reading, { sensorId: 's8', takenAt: key.takenAt }).commit();
    expect(await readings.count({ sensorId: 's7' })).toBe(0);
  });

  it('keeps counters out of TTLs and writes', async () => {
    @Entity('expiring_counts')
    @TimeToLive('1h')
    class ExpiringCounts {
      @Key() id = '';
      @Field({ type: 'counter' }) n = 0;
    }
    expect(() => build((b) => b.entity(ExpiringCounts)).entities).not.toThrow();
    await expect(
      open(
        client,
        keyspace,
        build((b) => b.entity(ExpiringCounts)),
      ),
    ).rejects.toThrow(ModelError);
    await expect(
      open(
        client,
        keyspace,
        build((b) => b.entity(ExpiringCounts)),
      ),
    ).rejects.toMatchObject({
      code: 'CASSANDRA_COUNTER_TTL',
    });
    const views = db.repository(PageViews);
    await expect(views.upsert(Object.assign(new PageViews(), { page: 'home', views: 1 }))).rejects.toMatchObject({
      code: 'CASSANDRA_COUNTER_WRITE',
    });
    await client.execute(`UPDATE "${keyspace}"."page_views" SET "views" = "views" + 3 WHERE "page" = 'home'`);
    expect(await views.get('home')).toMatchObject({ page: 'home', views: 3 });
    expect(await views.ttl('home')).toBeNull();
    await expect(views.upsert(Object.assign(new PageViews(), { page: 'x' }), { ttl: 60 })).rejects.toMatchObject({
      code: 'TTL_PER_WRITE_UNSUPPORTED',
    });
  });
});
