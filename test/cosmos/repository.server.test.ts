/**
 * Items against the in-process Cosmos server: the ttl property each per-write value writes, ttl(key)
 * from _ts, setTtl's patch, and the repository read paths. The server never expires items, so no test
 * claims expiry happened; hideExpired is checked on an item whose _ts + ttl has passed.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { connect, Entity, Field, Key, ModelBuilder, TimeToLive, UnsupportedTtlError } from '../../src';
import type { StoreContext } from '../../src';
import { CosmosStore } from '../../src/providers/cosmos';
import { AuditLog, CacheEntry, Cart, model as examples, Reading, Session } from '../../examples/models';
import { describeStore } from '../harness/stores';
import { localCosmos, rawItem } from './fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nowSeconds = () => Math.floor(Date.now() / 1000);

function cart(id: string, items: string[] = []): Cart {
  return Object.assign(new Cart(), { id, items });
}
function session(id: string, payload = ''): Session {
  return Object.assign(new Session(), { id, payload });
}

describeStore('cosmos', 'cosmos repository (in-process server)', () => {
  const fixture = localCosmos();
  let database: Database;
  let db: StoreContext;

  beforeAll(async () => {
    database = await fixture.freshDatabase();
    db = await connect(examples, new CosmosStore({ database }));
    await db.ensureCollections();
  });

  describe('the ttl property per per-write value', () => {
    it('n → ttl: n; default → no ttl property; never → ttl: -1 (never 0 or null)', async () => {
      const carts = db.repository(Cart);
      await carts.upsert(cart('n'), { ttl: '90s' });
      await carts.upsert(cart('d'));
      await carts.upsert(cart('d2'), { ttl: 'default' });
      await carts.upsert(cart('never'), { ttl: 'never' });
      expect((await rawItem(database, 'carts', 'n'))?.ttl).toBe(90);
      expect(await rawItem(database, 'carts', 'd')).not.toHaveProperty('ttl');
      expect(await rawItem(database, 'carts', 'd2')).not.toHaveProperty('ttl');
      expect((await rawItem(database, 'carts', 'never'))?.ttl).toBe(-1);
    });

    it('a plain upsert returns an item to the container default (drops its own ttl)', async () => {
      const carts = db.repository(Cart);
      await carts.upsert(cart('back'), { ttl: 30 });
      await carts.upsert(cart('back', ['x']));
      const raw = await rawItem(database, 'carts', 'back');
      expect(raw).not.toHaveProperty('ttl');
      expect(raw?.items).toEqual(['x']);
    });

    it("'keep' rewrites the item and keeps its expiry instant (to the second), whether from its ttl or the default", async () => {
      const carts = db.repository(Cart);
      const expiry = (raw: Record<string, unknown> | undefined, fallback: number) =>
        (raw?._ts as number) + ((raw?.ttl as number | undefined) ?? fallback);
      await carts.upsert(cart('k'), { ttl: 77 });
      await carts.upsert(cart('k-default'));
      const before = await rawItem(database, 'carts', 'k');
      const beforeDefault = await rawItem(database, 'carts', 'k-default');
      // Let _ts move on: a rewrite carrying the ttl property over would push the expiry 2 s later.
      await sleep(2100);
      await carts.upsert(cart('k', ['changed']), { ttl: 'keep' });
      await carts.upsert(cart('k-default', ['y']), { ttl: 'keep' });
      const after = await rawItem(database, 'carts', 'k');
      const afterDefault = await rawItem(database, 'carts', 'k-default');
      expect(after?.items).toEqual(['changed']);
      expect(after?._ts).toBeGreaterThanOrEqual((before?._ts as number) + 2);
      // Read and write may straddle a second boundary: the instant may move by that one second.
      expect(expiry(after, 0) - expiry(before, 0)).toBeGreaterThanOrEqual(0);
      expect(expiry(after, 0) - expiry(before, 0)).toBeLessThanOrEqual(1);
      expect(expiry(afterDefault, 604800) - expiry(beforeDefault, 604800)).toBeGreaterThanOrEqual(0);
      expect(expiry(afterDefault, 604800) - expiry(beforeDefault, 604800)).toBeLessThanOrEqual(1);

      await carts.upsert(cart('k-never'), { ttl: 'never' });
      await carts.upsert(cart('k-never', ['z']), { ttl: 'keep' });
      expect((await rawItem(database, 'carts', 'k-never'))?.ttl).toBe(-1);

      await carts.upsert(cart('k-new'), { ttl: 'keep' });
      expect(await rawItem(database, 'carts', 'k-new')).not.toHaveProperty('ttl');
    });

    it('{ extend } writes max(remaining, n) and never shortens', async () => {
      const carts = db.repository(Cart);
      await carts.upsert(cart('e'), { ttl: 30 });
      await carts.upsert(cart('e'), { ttl: { extend: '10m' } });
      expect((await rawItem(database, 'carts', 'e'))?.ttl).toBe(600);
      await carts.upsert(cart('e'), { ttl: { extend: 60 } });
      const shortened = (await rawItem(database, 'carts', 'e'))?.ttl as number;
      expect(shortened).toBeGreaterThanOrEqual(598);
      expect(shortened).toBeLessThanOrEqual(600);

      await carts.upsert(cart('e-default'));
      await carts.upsert(cart('e-default'), { ttl: { extend: 60 } });
      expect((await rawItem(database, 'carts', 'e-default'))?.ttl).toBeGreaterThanOrEqual(604800 - 2);

      await carts.upsert(cart('e-never'), { ttl: 'never' });
      await carts.upsert(cart('e-never'), { ttl: { extend: 60 } });
      expect((await rawItem(database, 'carts', 'e-never'))?.ttl).toBe(-1);

      await carts.upsert(cart('e-new'), { ttl: { extend: 45 } });
      expect((await rawItem(database, 'carts', 'e-new'))?.ttl).toBe(45);
    });

    it('insert with a per-write ttl creates the item with it', async () => {
      await db.repository(CacheEntry).insert(Object.assign(new CacheEntry(), { key: 'c1', value: 'v' }), { ttl: 120 });
      expect(await rawItem(database, 'cache_entries', 'c1')).toMatchObject({
        id: 'c1',
        key: 'c1',
        value: 'v',
        ttl: 120,
      });
    });

    it('refuses a per-write ttl on an entity that did not declare perWrite, writing nothing', async () => {
      const sessions = db.repository(Session);
      await expect(sessions.upsert(session('pw'), { ttl: 60 })).rejects.toBeInstanceOf(UnsupportedTtlError);
      await expect(sessions.upsert(session('pw'), { ttl: 'never' })).rejects.toMatchObject({
        code: 'TTL_PER_WRITE_NOT_DECLARED',
      });
      await expect(db.repository(AuditLog).setTtl('x', 60)).rejects.toBeInstanceOf(UnsupportedTtlError);
      expect(await rawItem(database, 'sessions', 'pw')).toBeUndefined();
    });
  });

  describe('ttl(key) and setTtl(key, ttl)', () => {
    it('ttl(key) computes the remaining seconds from _ts and the item or container ttl', async () => {
      const carts = db.repository(Cart);
      await carts.upsert(cart('t-own'), { ttl: 500 });
      await carts.upsert(cart('t-default'));
      await carts.upsert(cart('t-never'), { ttl: 'never' });
      const own = await carts.ttl('t-own');
      const ts = (await rawItem(database, 'carts', 't-own'))?._ts as number;
      expect(own).toBeGreaterThanOrEqual(ts + 500 - nowSeconds() - 1);
      expect(own).toBeLessThanOrEqual(500);
      expect(await carts.ttl('t-default')).toBeGreaterThan(604800 - 3);
      expect(await carts.ttl('t-never')).toBeNull();
      expect(await carts.ttl('missing')).toBeUndefined();
      expect(await db.repository(CacheEntry).ttl('nothing')).toBeUndefined();
    });

    it('ttl(key) is null on a container with TTL off and on -1 without an own ttl', async () => {
      await db.repository(AuditLog).insert(Object.assign(new AuditLog(), { id: 'a1', message: 'm' }));
      expect(await db.repository(AuditLog).ttl('a1')).toBeNull();
      await db.repository(CacheEntry).upsert(Object.assign(new CacheEntry(), { key: 'c-none', value: 'v' }));
      expect(await db.repository(CacheEntry).ttl('c-none')).toBeNull();
    });

    it('setTtl patches /ttl: n, never, default (removes it), keep (no write), extend', async () => {
      const carts = db.repository(Cart);
      await carts.upsert(cart('s', ['kept']));
      expect(await carts.setTtl('s', 45)).toBe(true);
      expect(await rawItem(database, 'carts', 's')).toMatchObject({ ttl: 45, items: ['kept'] });
      expect(await carts.ttl('s')).toBeLessThanOrEqual(45);

      expect(await carts.setTtl('s', 'never')).toBe(true);
      expect((await rawItem(database, 'carts', 's'))?.ttl).toBe(-1);
      expect(await carts.ttl('s')).toBeNull();

      expect(await carts.setTtl('s', 'default')).toBe(true);
      expect(await rawItem(database, 'carts', 's')).not.toHaveProperty('ttl');
      const etag = (await rawItem(database, 'carts', 's'))?._etag;
      // Already on the default: still a write (set + remove), so the countdown restarts.
      expect(await carts.setTtl('s', 'default')).toBe(true);
      const again = await rawItem(database, 'carts', 's');
      expect(again).not.toHaveProperty('ttl');
      expect(again?._etag).not.toBe(etag);

      const beforeKeep = (await rawItem(database, 'carts', 's'))?._etag;
      expect(await carts.setTtl('s', 'keep')).toBe(true);
      expect((await rawItem(database, 'carts', 's'))?._etag).toBe(beforeKeep);

      await carts.setTtl('s', 20);
      expect(await carts.setTtl('s', { extend: 300 })).toBe(true);
      expect((await rawItem(database, 'carts', 's'))?.ttl).toBe(300);
      expect(await carts.setTtl('s', { extend: 10 })).toBe(true);
      expect((await rawItem(database, 'carts', 's'))?.ttl).toBeGreaterThanOrEqual(298);
    });
  });

  describe('read paths', () => {
    it('maps a partition + clustering key to partition key value and id', async () => {
      const readings = db.repository(Reading);
      const takenAt = new Date('2024-03-01T10:00:00.000Z');
      await readings.insert(Object.assign(new Reading(), { sensorId: 's1', takenAt, value: 4.5 }));
      await readings.insert(Object.assign(new Reading(), { sensorId: 's2', takenAt, value: 1 }));
      const raw = await rawItem(database, 'readings', takenAt.toISOString(), 's1');
      expect(raw).toMatchObject({ sensorId: 's1', takenAt: takenAt.toISOString(), value: 4.5, $type: 'Reading' });
      const got = await readings.get({ sensorId: 's1', takenAt });
      expect(got?.takenAt).toEqual(takenAt);
      expect(got?.value).toBe(4.5);
      expect(await readings.count({ takenAt })).toBe(2);
      await expect(readings.get('s1')).rejects.toMatchObject({ code: 'KEY_INCOMPLETE' });
    });
  });
});

@Entity('shared_a')
@TimeToLive({ ttl: 3600, perWrite: true })
class Left {
  @Key() id = '';
  @Field() tag = '';
}
@Entity('shared_a')
@TimeToLive({ ttl: 3600, perWrite: true })
class Right {
  @Key() id = '';
  @Field() tag = '';
}

describeStore('cosmos', 'cosmos shared containers and hideExpired (in-process server)', () => {
  const fixture = localCosmos();

  it('entities sharing a container see only their own items', async () => {
    const database = await fixture.freshDatabase();
    const db = await connect(new ModelBuilder().entity(Left).entity(Right).build(), new CosmosStore({ database }));
    expect((await db.ensureCollections()).applied).toHaveLength(1);
    await db.repository(Left).insert(Object.assign(new Left(), { id: 'l', tag: 't' }));
    await db.repository(Right).insert(Object.assign(new Right(), { id: 'r', tag: 't' }));
    expect((await db.repository(Left).find({ tag: 't' })).map((x) => x.id)).toEqual(['l']);
    expect(await db.repository(Right).count()).toBe(1);
    expect(await db.repository(Right).get('l')).toBeUndefined();
    expect(await db.repository(Right).delete('l')).toBe(false);
    expect(await db.repository(Left).exists('l')).toBe(true);
  });

  it('without hideExpired an item past _ts + ttl is returned as the server returns it, with ttl 0', async () => {
    const database = await fixture.freshDatabase();
    const db = await connect(new ModelBuilder().entity(Left).build(), new CosmosStore({ database }));
    await db.ensureCollections();
    const left = db.repository(Left);
    await left.upsert(Object.assign(new Left(), { id: 'old', tag: 'x' }), { ttl: 1 });
    await sleep(2100);
    expect(await left.get('old')).toBeDefined();
    expect(await left.ttl('old')).toBe(0);
    expect(await left.count()).toBe(1);
  });

  it('with hideExpired, queries judge by the server clock as point reads do, whatever the client clock says', async () => {
    const database = await fixture.freshDatabase();
    const setUp = await connect(new ModelBuilder().entity(Left).build(), new CosmosStore({ database }));
    await setUp.ensureCollections();
    await setUp.repository(Left).upsert(Object.assign(new Left(), { id: 'live', tag: 'x' }), { ttl: 600 });
    // This client's clock runs an hour ahead of the server (the in-process server's Date header uses
    // the real clock; nothing is written while the clock is skewed).
    const realNow = Date.now.bind(Date);
    const skew = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_600_000);
    try {
      const db = await connect(
        new ModelBuilder().entity(Left).build(),
        new CosmosStore({ database, hideExpired: true }),
      );
      const left = db.repository(Left);
      // By the client clock 'live' expired 50 minutes ago; by the server's it has 10 minutes left.
      expect(await left.exists('live')).toBe(true);
      expect((await left.find({ tag: 'x' })).map((x) => x.id)).toEqual(['live']);
      expect(await left.count()).toBe(1);
    } finally {
      skew.mockRestore();
    }
  });

  it('with hideExpired every read path leaves out items past _ts + ttl', async () => {
    const database = await fixture.freshDatabase();
    const db = await connect(new ModelBuilder().entity(Left).build(), new CosmosStore({ database, hideExpired: true }));
    await db.ensureCollections();
    const left = db.repository(Left);
    await left.upsert(Object.assign(new Left(), { id: 'old', tag: 'x' }), { ttl: 1 });
    await left.upsert(Object.assign(new Left(), { id: 'live', tag: 'x' }), { ttl: 600 });
    await left.upsert(Object.assign(new Left(), { id: 'forever', tag: 'x' }), { ttl: 'never' });
    await sleep(2100);
    expect(await left.get('old')).toBeUndefined();
    expect(await left.exists('old')).toBe(false);
    expect(await left.ttl('old')).toBeUndefined();
    expect((await left.getMany(['old', 'live'])).map((x) => x.id)).toEqual(['live']);
    expect((await left.find({ tag: 'x' })).map((x) => x.id).sort()).toEqual(['forever', 'live']);
    expect(await left.count()).toBe(2);
    expect(await left.setTtl('old', 600)).toBe(false);
    expect(await left.delete('old')).toBe(false);
    expect(await rawItem(database, 'shared_a', 'old')).toBeUndefined();
    expect(db.explain().entries[0]?.limits.some((l) => l.startsWith('hideExpired'))).toBe(true);
  });
});
