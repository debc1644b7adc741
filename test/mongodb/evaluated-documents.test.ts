/**
 * Document outcomes against the evaluating fake (test/mongodb/fake): lifespan's filters, update
 * pipelines and aggregations are executed (mingo, with the fake's clock as $$NOW), so what these
 * tests assert is what ends up stored and read back, not the shape of what was sent.
 */
import model, { CacheEntry, Cart, Session } from '../../examples/models';
import { connect, type StoreContext } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import { MemoryDb } from './fake/memory-db';

async function open(hideExpired = false): Promise<{ db: MemoryDb; ctx: StoreContext }> {
  const db = new MemoryDb();
  const ctx = await connect(model, new MongoStore({ db, hideExpired }));
  await ctx.ensureCollections();
  return { db, ctx };
}

const session = (id: string, payload = 'p') => Object.assign(new Session(), { id, payload });
const cart = (id: string) => Object.assign(new Cart(), { id, items: ['apple'] });
/** The stored expiresAt of a cart, in ms (undefined: the field is absent). */
const expiresAt = (db: MemoryDb, id: string) =>
  (db.documents('carts').find((d) => d['_id'] === id)?.['expiresAt'] as Date | undefined)?.getTime();

describe('expiry counted from a date member (Session: createdAt + 3600 s)', () => {
  test('createdAt is the server clock at insert, and an upsert keeps it', async () => {
    const { db, ctx } = await open();
    const sessions = ctx.repository(Session);
    const t0 = db.now.getTime();
    await sessions.insert(session('s1', '$looksLikeAPath'));
    db.advance(10);
    await sessions.upsert(session('s1', 'second'));
    const [stored] = db.documents('sessions');
    expect(stored).toEqual({ _id: 's1', createdAt: new Date(t0), payload: 'second' });
    await sessions.insert(session('s2', '$looksLikeAPath'));
    expect((await sessions.get('s2'))?.payload).toBe('$looksLikeAPath');
  });

  test('expired documents stay readable until the TTL monitor runs; then they are gone', async () => {
    const { db, ctx } = await open();
    const sessions = ctx.repository(Session);
    await sessions.insert(session('s1'));
    db.advance(3599);
    expect(await sessions.ttl('s1')).toBe(1);
    expect(db.ttlMonitorPass()).toEqual({});
    db.advance(1);
    expect(await sessions.get('s1')).toMatchObject({ id: 's1' });
    expect(await sessions.count()).toBe(1);
    expect(db.ttlMonitorPass()).toEqual({ sessions: 1 });
    expect(await sessions.get('s1')).toBeUndefined();
  });

  test('hideExpired: a due document is invisible to every read path before the monitor deletes it', async () => {
    const { db, ctx } = await open(true);
    const sessions = ctx.repository(Session);
    await sessions.insert(session('due'));
    db.advance(1800);
    await sessions.insert(session('live'));
    db.advance(1800);
    expect(await sessions.get('due')).toBeUndefined();
    expect(await sessions.exists('due')).toBe(false);
    expect((await sessions.getMany(['due', 'live'])).map((s) => s.id)).toEqual(['live']);
    expect((await sessions.find()).map((s) => s.id)).toEqual(['live']);
    expect(await sessions.count()).toBe(1);
    expect(await sessions.ttl('due')).toBeUndefined();
    expect(await sessions.ttl('live')).toBe(1800);
    expect(db.documents('sessions')).toHaveLength(2); // still stored
    expect(await sessions.delete('due')).toBe(false);
  });

  test('insert: a live duplicate is STORE_DUPLICATE_KEY (the server refused it); with hideExpired a due one is replaced', async () => {
    const plain = await open();
    await plain.ctx.repository(Session).insert(session('s1', 'first'));
    await expect(plain.ctx.repository(Session).insert(session('s1', 'again'))).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_KEY',
    });
    expect(plain.db.documents('sessions')).toEqual([expect.objectContaining({ payload: 'first' })]);

    const hiding = await open(true);
    const sessions = hiding.ctx.repository(Session);
    await sessions.insert(session('s1', 'first'));
    await expect(sessions.insert(session('s1', 'again'))).rejects.toMatchObject({ code: 'STORE_DUPLICATE_KEY' });
    hiding.db.advance(3600);
    await sessions.insert(session('s1', 'fresh'));
    const [stored] = hiding.db.documents('sessions');
    expect(stored).toEqual({ _id: 's1', createdAt: hiding.db.now, payload: 'fresh' });
  });

  test('with hideExpired, an upsert over a due-but-undeleted document starts its clock afresh', async () => {
    const { db, ctx } = await open(true);
    const sessions = ctx.repository(Session);
    await sessions.insert(session('s1'));
    db.advance(1000);
    await sessions.upsert(session('s1', 'kept'));
    expect(await sessions.ttl('s1')).toBe(2600);
    db.advance(2600);
    await sessions.upsert(session('s1', 'renewed'));
    expect(await sessions.ttl('s1')).toBe(3600);
  });
});

describe('per-document expiry (Cart: expiresAt, 7 d default from updatedAt, perWrite)', () => {
  const WEEK = 604800;

  test('the default, a duration and never, as stored expiresAt and as monitor outcomes', async () => {
    const { db, ctx } = await open();
    const carts = ctx.repository(Cart);
    const t0 = db.now.getTime();
    await carts.insert(cart('default'));
    await carts.insert(cart('minute'), { ttl: 60 });
    await carts.insert(cart('never'), { ttl: 'never' });
    expect(expiresAt(db, 'default')).toBe(t0 + WEEK * 1000);
    expect(expiresAt(db, 'minute')).toBe(t0 + 60_000);
    expect(expiresAt(db, 'never')).toBeUndefined();
    db.advance(60);
    expect(db.ttlMonitorPass()).toEqual({ carts: 1 });
    db.advance(10 * WEEK);
    expect(db.ttlMonitorPass()).toEqual({ carts: 1 });
    expect(db.documents('carts').map((d) => d['_id'])).toEqual(['never']);
  });

  test("'keep' leaves expiresAt; { extend } never shortens and lengthens; a plain write re-stamps; 'never' removes it", async () => {
    const { db, ctx } = await open();
    const carts = ctx.repository(Cart);
    await carts.insert(cart('c'), { ttl: 3600 });
    const first = expiresAt(db, 'c') as number;
    db.advance(100);
    await carts.upsert(cart('c'), { ttl: 'keep' });
    expect(expiresAt(db, 'c')).toBe(first);
    await carts.upsert(cart('c'), { ttl: { extend: 60 } });
    expect(expiresAt(db, 'c')).toBe(first);
    await carts.upsert(cart('c'), { ttl: { extend: '2h' } });
    expect(expiresAt(db, 'c')).toBe(db.now.getTime() + 7200_000);
    await carts.upsert(cart('c'));
    expect(expiresAt(db, 'c')).toBe(db.now.getTime() + WEEK * 1000);
    await carts.upsert(cart('c'), { ttl: 'never' });
    expect(expiresAt(db, 'c')).toBeUndefined();
    await carts.upsert(cart('c'), { ttl: { extend: 60 } });
    expect(expiresAt(db, 'c')).toBeUndefined(); // never stays never
    await carts.upsert(cart('fresh'), { ttl: 'keep' });
    expect(expiresAt(db, 'fresh')).toBe(db.now.getTime() + WEEK * 1000); // a new document gets the default
  });

  test('setTtl shortens, lengthens, extends only upward, and reports a missing key', async () => {
    const { db, ctx } = await open();
    const carts = ctx.repository(Cart);
    await carts.insert(cart('c'));
    const row = db.documents('carts')[0];
    expect(await carts.setTtl('c', 60)).toBe(true);
    expect(await carts.ttl('c')).toBe(60);
    expect(await carts.setTtl('c', '2h')).toBe(true);
    expect(await carts.ttl('c')).toBe(7200);
    expect(await carts.setTtl('c', { extend: 60 })).toBe(true);
    expect(await carts.ttl('c')).toBe(7200);
    expect(await carts.setTtl('c', 'default')).toBe(true);
    expect(await carts.ttl('c')).toBe(WEEK);
    expect(await carts.setTtl('c', 'never')).toBe(true);
    expect(await carts.ttl('c')).toBeNull();
    expect(await carts.setTtl('missing', 60)).toBe(false);
    expect(db.documents('carts')).toHaveLength(1);
    const { expiresAt: _gone, ...rest } = row ?? {};
    expect(db.documents('carts')[0]).toEqual(rest); // only the expiry changed
  });

  test('perWrite without a default (CacheEntry): nothing expires unless a write says so', async () => {
    const { db, ctx } = await open();
    const cache = ctx.repository(CacheEntry);
    await cache.insert(Object.assign(new CacheEntry(), { key: 'forever', value: 'v' }));
    await cache.insert(Object.assign(new CacheEntry(), { key: 'brief', value: 'v' }), { ttl: '15m' });
    await cache.upsert(Object.assign(new CacheEntry(), { key: 'brief2', value: 'v' }), { ttl: '15m' });
    await cache.upsert(Object.assign(new CacheEntry(), { key: 'brief2', value: 'w' }));
    expect(await cache.ttl('forever')).toBeNull();
    expect(await cache.ttl('brief')).toBe(900);
    expect(await cache.ttl('brief2')).toBeNull(); // a plain upsert follows the (absent) default
    db.advance(900);
    expect(db.ttlMonitorPass()).toEqual({ cache_entries: 1 });
  });

  test('a unit of work: the commit TTL fills writes without their own, deletes apply, in order', async () => {
    const { db, ctx } = await open();
    await ctx.repository(Cart).insert(cart('gone'));
    await ctx
      .unitOfWork()
      .upsert(cart('own'), { ttl: '1h' })
      .insert(cart('commit'))
      .insert(session('s'), { ttl: 'default' })
      .delete(Cart, 'gone')
      .commit({ ttl: 120 });
    const t = db.now.getTime();
    expect(expiresAt(db, 'own')).toBe(t + 3600_000);
    expect(expiresAt(db, 'commit')).toBe(t + 120_000);
    expect(
      db
        .documents('carts')
        .map((d) => d['_id'])
        .sort(),
    ).toEqual(['commit', 'own']);
    expect(db.documents('sessions')).toHaveLength(1);
    await expect(ctx.unitOfWork().insert(cart('own')).commit()).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_KEY',
    });
  });
});
