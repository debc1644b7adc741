/**
 * Units of work against the in-process Cosmos server. Writes go out as transactional batches, one
 * per container and partition key value. The server runs batch operations in order and stops at the
 * first failure but does not roll back, so atomicity itself is the service's guarantee, not tested here.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { connect, LifespanError, UnsupportedTtlError } from '../../src';
import type { StoreContext } from '../../src';
import { CosmosStore } from '../../src/providers/cosmos';
import { CacheEntry, Cart, model as examples, Reading, Session } from '../../examples/models';
import { describeStore } from '../harness/stores';
import { localCosmos, rawItem } from './fixtures';

const cart = (id: string) => Object.assign(new Cart(), { id, items: [] });
const entry = (key: string) => Object.assign(new CacheEntry(), { key, value: key });
const session = (id: string, payload = '') => Object.assign(new Session(), { id, payload });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeStore('cosmos', 'cosmos unit of work (in-process server)', () => {
  const fixture = localCosmos();
  let database: Database;
  let db: StoreContext;

  beforeAll(async () => {
    database = await fixture.freshDatabase();
    db = await connect(examples, new CosmosStore({ database }));
    await db.ensureCollections();
  });

  it('commit({ ttl }) applies to every write without its own ttl', async () => {
    await db
      .unitOfWork()
      .insert(entry('u1'), { ttl: 30 })
      .insert(entry('u2'))
      .upsert(cart('u3'), { ttl: 'default' })
      .commit({ ttl: 'never' });
    expect((await rawItem(database, 'cache_entries', 'u1'))?.ttl).toBe(30);
    expect((await rawItem(database, 'cache_entries', 'u2'))?.ttl).toBe(-1);
    expect(await rawItem(database, 'carts', 'u3')).not.toHaveProperty('ttl');
  });

  it('batches several items of one partition and deletes in the same unit of work', async () => {
    const takenAt = (m: number) => new Date(Date.UTC(2024, 0, 1, 0, m));
    await db
      .unitOfWork()
      .insert(Object.assign(new Reading(), { sensorId: 'p', takenAt: takenAt(1), value: 1 }))
      .insert(Object.assign(new Reading(), { sensorId: 'p', takenAt: takenAt(2), value: 2 }))
      .insert(Object.assign(new Reading(), { sensorId: 'q', takenAt: takenAt(1), value: 3 }))
      .commit();
    expect(await db.repository(Reading).count()).toBe(3);
    await db
      .unitOfWork()
      .delete(Reading, { sensorId: 'p', takenAt: takenAt(1) })
      .delete(Reading, { sensorId: 'p', takenAt: takenAt(59) })
      .commit();
    expect((await db.repository(Reading).find({ sensorId: 'p' })).map((r) => r.value)).toEqual([2]);
  });

  it('a delete after an insert of the same item in one unit of work is kept (the item does not stay)', async () => {
    await db.unitOfWork().insert(entry('gone')).delete(CacheEntry, 'gone').commit();
    expect(await rawItem(database, 'cache_entries', 'gone')).toBeUndefined();
  });

  it("'keep' and { extend } read the item first and replace it on its etag; keep holds the expiry instant", async () => {
    await db.repository(Cart).upsert(cart('k'), { ttl: 99 });
    await db.repository(Cart).upsert(cart('x'), { ttl: 30 });
    const before = await rawItem(database, 'carts', 'k');
    // Let _ts move on: a rewrite carrying ttl 99 over would push the expiry 2 s later.
    await sleep(2100);
    await db
      .unitOfWork()
      .upsert(Object.assign(cart('k'), { items: ['new'] }), { ttl: 'keep' })
      .upsert(cart('x'), { ttl: { extend: 500 } })
      .commit();
    const after = await rawItem(database, 'carts', 'k');
    expect(after?.items).toEqual(['new']);
    const moved = (after?._ts as number) + (after?.ttl as number) - ((before?._ts as number) + 99);
    expect(moved).toBeGreaterThanOrEqual(0);
    expect(moved).toBeLessThanOrEqual(1);
    expect((await rawItem(database, 'carts', 'x'))?.ttl).toBe(500);
  });

  it('an upsert keeps the stored @CreatedAt, also when the unit of work writes the item twice', async () => {
    await db.repository(Session).insert(session('c1', 'first'));
    const created = (await rawItem(database, 'sessions', 'c1'))?.createdAt as string;
    await sleep(20);
    await db.unitOfWork().upsert(session('c1', 'second')).upsert(session('c1', 'third')).commit();
    expect(await rawItem(database, 'sessions', 'c1')).toMatchObject({ payload: 'third', createdAt: created });

    // A new item written twice: one createdAt, the first write's; a delete then upsert starts afresh.
    await db.unitOfWork().upsert(session('c2', 'a')).upsert(session('c2', 'b')).commit();
    expect(await rawItem(database, 'sessions', 'c2')).toMatchObject({ payload: 'b' });
    await db.unitOfWork().delete(Session, 'c1').upsert(session('c1', 'again')).commit();
    const again = await rawItem(database, 'sessions', 'c1');
    expect(again?.payload).toBe('again');
    expect(again?.createdAt).not.toBe(created);
  });

  it('reports a duplicate insert as STORE_DUPLICATE_KEY', async () => {
    await db.repository(Session).insert(Object.assign(new Session(), { id: 'dup' }));
    await expect(
      db
        .unitOfWork()
        .insert(Object.assign(new Session(), { id: 'dup' }))
        .commit(),
    ).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_KEY',
    });
  });

  it('checks every write before sending anything', async () => {
    const uow = db
      .unitOfWork()
      .insert(entry('first'))
      .insert(Object.assign(new Session(), { id: 'pw' }), { ttl: 60 });
    await expect(uow.commit()).rejects.toBeInstanceOf(UnsupportedTtlError);
    expect(await rawItem(database, 'cache_entries', 'first')).toBeUndefined();
    await expect(uow.commit()).rejects.toMatchObject({ code: 'UOW_ALREADY_COMMITTED' });
  });

  it('rejects an object that is not an entity of the model', async () => {
    class Stranger {
      id = 'x';
    }
    // Refused at the call, as on every store (issue 14), not later at commit.
    expect(() => db.unitOfWork().insert(new Stranger())).toThrow(expect.objectContaining({ code: 'UNKNOWN_ENTITY' }));
    expect(() => db.unitOfWork().upsert({ id: 'plain' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_ENTITY' }));
    expect(() => db.unitOfWork().delete(undefined as never, 'x')).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_ENTITY' }),
    );
  });

  it('rejects null and non-objects with BAD_ARGUMENT (never a TypeError), writing nothing', async () => {
    for (const value of [null, undefined, 'text', 42]) {
      const unit = db.unitOfWork().insert(entry('not-written'));
      expect(() => unit.insert(value as never)).toThrow(LifespanError);
      expect(() => unit.insert(value as never)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    }
    // null options are refused as on every store (issue 14), before the unit is spent.
    await expect(
      db
        .unitOfWork()
        .insert(entry('opt'))
        .commit(null as never),
    ).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    expect(await rawItem(database, 'cache_entries', 'not-written')).toBeUndefined();
  });

  it('a missing required member is VALUE_INVALID naming it, and nothing of the unit of work is written', async () => {
    const bad = Object.assign(session('v1'), { payload: undefined });
    await expect(db.unitOfWork().insert(entry('v0')).upsert(bad).commit()).rejects.toMatchObject({
      code: 'VALUE_INVALID',
      entity: 'Session',
      member: 'payload',
    });
    expect(await rawItem(database, 'cache_entries', 'v0')).toBeUndefined();
  });

  it('commits once: after a failed commit every further call throws UOW_ALREADY_COMMITTED', async () => {
    const uow = db.unitOfWork().insert(Object.assign(new Session(), { id: 'once' }), { ttl: 60 });
    await expect(uow.commit()).rejects.toBeInstanceOf(UnsupportedTtlError);
    const code = { code: 'UOW_ALREADY_COMMITTED' };
    expect(() => uow.insert(entry('late'))).toThrow(expect.objectContaining(code));
    expect(() => uow.upsert(entry('late'))).toThrow(expect.objectContaining(code));
    expect(() => uow.delete(CacheEntry, 'late')).toThrow(/build a new one with unitOfWork\(\)/);
    await expect(uow.commit()).rejects.toMatchObject(code);
    expect(await rawItem(database, 'cache_entries', 'late')).toBeUndefined();

    const done = db.unitOfWork().insert(entry('ok'));
    await done.commit();
    expect(() => done.insert(entry('late'))).toThrow(expect.objectContaining(code));
    await expect(done.commit()).rejects.toMatchObject(code);
  });
});
