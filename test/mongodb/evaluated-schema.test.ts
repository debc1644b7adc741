/**
 * Schema outcomes against the evaluating fake (test/mongodb/fake): the indexes lifespan creates
 * are what listIndexes then returns, a TTL change applied with collMod is retroactive for stored
 * documents at the next TTL monitor pass, and MongoDB's documented index rules are enforced by the
 * fake with the server's error codes, not by a comparison with a test literal.
 */
import model, { Cart, Session } from '../../examples/models';
import { connect, ModelBuilder } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import { MemoryDb } from './fake/memory-db';

const sessionsWith = (ttl: string | number) =>
  new ModelBuilder().entity(Session, (e) => e.timeToLive((s) => s.createdAt, ttl)).build();

async function open(db: MemoryDb, m = model) {
  return connect(m, new MongoStore({ db }));
}

/** The index specs listIndexes returns for a collection. */
async function indexes(db: MemoryDb, collection: string) {
  const reply = await db.command({ listIndexes: collection });
  return (reply['cursor'] as { firstBatch: Record<string, unknown>[] }).firstBatch;
}

describe('ensureCollections() and plan() against the fake index table', () => {
  test('creates each TTL index as compiled, then plans nothing: listIndexes reads back what was created', async () => {
    const db = new MemoryDb();
    const ctx = await open(db);
    await ctx.ensureCollections();
    expect(await indexes(db, 'sessions')).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 3600 },
    ]);
    expect(await indexes(db, 'carts')).toContainEqual(
      expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }),
    );
    expect((await ctx.plan()).steps).toEqual([]);
    await ctx.ensureCollections(); // idempotent: identical createIndexes are no-ops on the server
    expect((await indexes(db, 'sessions')).length).toBe(2);
  });

  test('a TTL change is applied in place with collMod and is retroactive at the next monitor pass', async () => {
    const db = new MemoryDb();
    const before = await open(db, sessionsWith('1h'));
    await before.ensureCollections();
    const sessions = before.repository(Session);
    await sessions.insert(Object.assign(new Session(), { id: 'old', payload: 'p' }));
    db.advance(30 * 60);
    await sessions.insert(Object.assign(new Session(), { id: 'new', payload: 'p' }));
    expect(db.ttlMonitorPass()).toEqual({});

    const after = await open(db, sessionsWith('20m'));
    const plan = await after.plan();
    expect(plan.steps.map((s) => s.action)).toEqual(['set-expire-after-seconds']);
    // A retroactive shortening over stored documents needs the caller's consent.
    await expect(after.apply(plan)).rejects.toMatchObject({ code: 'PLAN_RETROACTIVE_NOT_ALLOWED' });
    await after.apply(plan, { allowRetroactive: true });
    expect(await indexes(db, 'sessions')).toContainEqual(
      expect.objectContaining({ name: 'createdAt_1', expireAfterSeconds: 1200 }),
    );
    // Stored documents follow the new value: 'old' (30 min) is due now, 'new' (0 min) is not.
    expect(await after.repository(Session).exists('old')).toBe(true); // still readable until the monitor runs
    expect(db.ttlMonitorPass()).toEqual({ sessions: 1 });
    expect(db.documents('sessions').map((d) => d['_id'])).toEqual(['new']);
    expect((await after.plan()).steps).toEqual([]);
  });
});

describe("MongoDB's index rules, enforced by the fake with the server's codes", () => {
  const create = (db: MemoryDb, spec: Record<string, unknown>) => db.command({ createIndexes: 'c', indexes: [spec] });
  const ttl = (key: Record<string, unknown>, expireAfterSeconds: unknown, name = 'i') => ({
    key,
    name,
    expireAfterSeconds,
  });

  test.each([
    ['a string', '3600', 67, /must be numeric/],
    ['NaN', Number.NaN, 67, /must not be NaN/],
    ['a negative value', -1, 67, /cannot be less than 0/],
    ['more than 2147483647', 2147483648, 67, /acceptable range/],
  ])('createIndexes refuses expireAfterSeconds as %s', async (_what, value, code, message) => {
    await expect(create(new MemoryDb(), ttl({ at: 1 }, value))).rejects.toMatchObject({ code, message });
  });

  test('createIndexes accepts 0 and 2147483647; refuses a compound key (67) and _id (197)', async () => {
    const db = new MemoryDb();
    await create(db, ttl({ a: 1 }, 0, 'a'));
    await create(db, ttl({ b: 1 }, 2147483647, 'b'));
    await expect(create(db, ttl({ a: 1, b: 1 }, 60, 'ab'))).rejects.toMatchObject({
      code: 67,
      codeName: 'CannotCreateIndex',
    });
    await expect(create(db, ttl({ _id: 1 }, 60, 'id'))).rejects.toMatchObject({
      code: 197,
      codeName: 'InvalidIndexSpecificationOption',
    });
  });

  test('conflicts with an existing index: same name other options 85, other name same key 85, same name other key 86', async () => {
    const db = new MemoryDb();
    await create(db, ttl({ at: 1 }, 60, 'at_1'));
    expect(await create(db, ttl({ at: 1 }, 60, 'at_1'))).toMatchObject({ note: 'all indexes already exist' });
    await expect(create(db, ttl({ at: 1 }, 120, 'at_1'))).rejects.toMatchObject({ code: 85 });
    await expect(create(db, ttl({ at: 1 }, 60, 'other'))).rejects.toMatchObject({
      code: 85,
      message: expect.stringContaining('different name'),
    });
    await expect(create(db, ttl({ other: 1 }, 60, 'at_1'))).rejects.toMatchObject({ code: 86 });
  });

  test('collMod: TypeMismatch 14 for a string, InvalidOptions 72 for negative, compound or _id, IndexNotFound 27', async () => {
    const db = new MemoryDb();
    await create(db, ttl({ at: 1 }, 60, 'at_1'));
    await create(db, { key: { a: 1, b: 1 }, name: 'ab' });
    const mod = (index: Record<string, unknown>) => db.command({ collMod: 'c', index });
    await expect(mod({ keyPattern: { at: 1 }, expireAfterSeconds: '5' })).rejects.toMatchObject({ code: 14 });
    await expect(mod({ keyPattern: { at: 1 }, expireAfterSeconds: -1 })).rejects.toMatchObject({ code: 72 });
    await expect(mod({ keyPattern: { a: 1, b: 1 }, expireAfterSeconds: 5 })).rejects.toMatchObject({ code: 72 });
    await expect(mod({ keyPattern: { _id: 1 }, expireAfterSeconds: 5 })).rejects.toMatchObject({ code: 72 });
    await expect(mod({ keyPattern: { nope: 1 }, expireAfterSeconds: 5 })).rejects.toMatchObject({ code: 27 });
    expect(await mod({ keyPattern: { at: 1 }, expireAfterSeconds: 5 })).toEqual({
      expireAfterSeconds_old: 60,
      expireAfterSeconds_new: 5,
      ok: 1,
    });
    await expect(
      db.command({ collMod: 'missing', index: { keyPattern: { at: 1 }, expireAfterSeconds: 5 } }),
    ).rejects.toMatchObject({ code: 26 });
  });

  test('an existing non-TTL index on the TTL field under another name is converted in place (collMod), not duplicated', async () => {
    const db = new MemoryDb();
    await db.command({ createIndexes: 'sessions', indexes: [{ key: { createdAt: 1 }, name: 'by_created' }] });
    const ctx = await open(db, sessionsWith('1h'));
    await ctx.ensureCollections();
    expect(await indexes(db, 'sessions')).toEqual([
      { v: 2, key: { _id: 1 }, name: '_id_' },
      { v: 2, key: { createdAt: 1 }, name: 'by_created', expireAfterSeconds: 3600 },
    ]);
    expect((await ctx.plan()).steps).toEqual([]);
  });

  test('Cart (perWrite): the expiry-date field index has expireAfterSeconds 0, so each document expires at its own date', async () => {
    const db = new MemoryDb();
    const ctx = await open(db);
    await ctx.ensureCollections();
    const carts = ctx.repository(Cart);
    await carts.insert(Object.assign(new Cart(), { id: 'short', items: [] }), { ttl: 60 });
    await carts.insert(Object.assign(new Cart(), { id: 'long', items: [] }), { ttl: '2h' });
    db.advance(60);
    expect(db.ttlMonitorPass()).toEqual({ carts: 1 });
    expect(db.documents('carts').map((d) => d['_id'])).toEqual(['long']);
  });
});
