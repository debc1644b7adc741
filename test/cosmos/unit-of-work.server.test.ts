/**
 * Units of work against the in-process Cosmos server. Writes go out as transactional batches, one
 * per container and partition key value. The server runs batch operations in order and stops at the
 * first failure but does not roll back, so atomicity itself is the service's guarantee, not tested here.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { connect } from '../../src';
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
});
