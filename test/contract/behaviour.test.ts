/**
 * Contract: the behaviour every store shares through the public API, run against each entry of the
 * store table (test/contract/stores.ts). Where a store lacks a capability, the documented
 * behaviour instead (UnsupportedTtlError, the partial-commit report) is asserted.
 */
import { ErrorCodes, StoreError, UnsupportedTtlError, type PerWriteTtl } from '../../src';
import { contractModel, order, Order, sample, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cb${process.pid % 10000}`;

/** Remaining seconds within (low, high]: a write's clock and the read's are a moment apart. */
const about = (seconds: number) => [seconds - 15, seconds] as const;

forEachStore('store contract', contractModel(prefix), prefix, (store, db) => {
  const samples = () => db().repository(Sample);

  describe('CRUD and key shapes', () => {
    test('a compound key addresses each record; a partition reads its own', async () => {
      const orders = db().repository(Order);
      await orders.insert(order('u1', 'a', 1));
      await orders.insert(order('u2', 'a', 2));
      await orders.upsert(order('u1', 'b', 3));
      expect(await orders.get({ userId: 'u1', id: 'a' })).toMatchObject({ total: 1 });
      expect(await orders.get({ userId: 'u2', id: 'a' })).toBeInstanceOf(Order);
      expect((await orders.find({ userId: 'u1' })).map((o) => o.id).sort()).toEqual(['a', 'b']);
      expect(await orders.count({ userId: 'u1' })).toBe(2);
      expect(await orders.exists({ userId: 'u2', id: 'a' })).toBe(true);
      const many = await orders.getMany([
        { userId: 'u1', id: 'b' },
        { userId: 'u9', id: 'x' },
      ]);
      expect(many.map((o) => o.total)).toEqual([3]);
      // getMany answers in the order asked, leaving out what is missing.
      const ordered = await orders.getMany([
        { userId: 'u2', id: 'a' },
        { userId: 'u9', id: 'x' },
        { userId: 'u1', id: 'b' },
        { userId: 'u1', id: 'a' },
      ]);
      expect(ordered.map((o) => o.total)).toEqual([2, 3, 1]);
      expect(await orders.delete({ userId: 'u2', id: 'a' })).toBe(true);
      expect(await orders.delete({ userId: 'u2', id: 'a' })).toBe(false);
      expect(await orders.get({ userId: 'u2', id: 'a' })).toBeUndefined();
    });

    test('insert of an existing key is DUPLICATE_KEY; a key without every member is KEY_INCOMPLETE', async () => {
      const orders = db().repository(Order);
      await orders.upsert(order('u3', 'a', 1));
      const duplicate = orders.insert(order('u3', 'a', 9));
      await expect(duplicate).rejects.toBeInstanceOf(StoreError);
      await expect(duplicate).rejects.toMatchObject({
        code: ErrorCodes.STORE_DUPLICATE_KEY,
        store: store.can.storeName,
      });
      expect(await orders.get({ userId: 'u3', id: 'a' })).toMatchObject({ total: 1 });
      await expect(orders.get('a' as never)).rejects.toMatchObject({ code: ErrorCodes.KEY_INCOMPLETE });
      await expect(orders.get({ userId: 'u3' } as never)).rejects.toMatchObject({ code: ErrorCodes.KEY_INCOMPLETE });
    });
  });

  describe('per-write TTL values, ttl() and setTtl()', () => {
    test.each([
      ['a duration', 60, about(60)],
      ["'default'", 'default', about(3600)],
      ['no ttl', undefined, about(3600)],
    ] as const)('%s: ttl() reports the remaining seconds', async (label, ttl, [low, high]) => {
      const id = `pw-${label.replace(/\W/g, '')}`;
      await samples().upsert(sample(id), ttl === undefined ? undefined : { ttl: ttl as PerWriteTtl });
      const left = await samples().ttl(id);
      expect(left).toBeGreaterThan(low);
      expect(left).toBeLessThanOrEqual(high);
    });

    test("'never': ttl() is null; a missing key: undefined", async () => {
      await samples().upsert(sample('pw-never'), { ttl: 'never' });
      expect(await samples().ttl('pw-never')).toBeNull();
      expect(await samples().ttl('pw-missing')).toBeUndefined();
    });

    test(`'keep' ${store.can.supportsKeep ? 'leaves the expiry' : 'is UnsupportedTtlError, writing nothing'}`, async () => {
      await samples().upsert(sample('pw-keep', { text: 'before' }), { ttl: 60 });
      const write = samples().upsert(sample('pw-keep', { text: 'after' }), { ttl: 'keep' });
      if (!store.can.supportsKeep) {
        await expect(write).rejects.toBeInstanceOf(UnsupportedTtlError);
        await expect(write).rejects.toMatchObject({ code: 'TTL_PER_WRITE_UNSUPPORTED', store: store.can.storeName });
        expect(await samples().get('pw-keep')).toMatchObject({ text: 'before' });
        await expect(db().unitOfWork().upsert(sample('pw-keep-uow')).commit({ ttl: 'keep' })).rejects.toBeInstanceOf(
          UnsupportedTtlError,
        );
        expect(await samples().get('pw-keep-uow')).toBeUndefined();
        return;
      }
      await write;
      expect(await samples().get('pw-keep')).toMatchObject({ text: 'after' });
      const left = await samples().ttl('pw-keep');
      expect(left).toBeGreaterThan(45);
      expect(left).toBeLessThanOrEqual(60);
    });

    test(`{ extend } ${store.can.supportsExtend ? 'only ever extends' : 'is UnsupportedTtlError'}`, async () => {
      await samples().upsert(sample('pw-extend'), { ttl: 60 });
      const write = samples().upsert(sample('pw-extend'), { ttl: { extend: 600 } });
      if (!store.can.supportsExtend) {
        await expect(write).rejects.toMatchObject({ code: 'TTL_PER_WRITE_UNSUPPORTED', store: store.can.storeName });
        await expect(samples().setTtl('pw-extend', { extend: 60 })).rejects.toBeInstanceOf(UnsupportedTtlError);
        return;
      }
      await write;
      await samples().upsert(sample('pw-extend'), { ttl: { extend: 30 } });
      const left = await samples().ttl('pw-extend');
      expect(left).toBeGreaterThan(585);
      expect(left).toBeLessThanOrEqual(600);
    });

    test('setTtl() changes the remaining life; on a missing key it is false and writes nothing', async () => {
      await samples().upsert(sample('st'), { ttl: 60 });
      expect(await samples().setTtl('st', 900)).toBe(true);
      const left = await samples().ttl('st');
      expect(left).toBeGreaterThan(885);
      expect(left).toBeLessThanOrEqual(900);
      expect(await samples().setTtl('st', 'never')).toBe(true);
      expect(await samples().ttl('st')).toBeNull();
      expect(await samples().setTtl('st-missing', 60)).toBe(false);
      expect(await samples().setTtl('st-missing', 'default')).toBe(false);
      expect(await samples().get('st-missing')).toBeUndefined();
    });

    test('a per-write value outside the grammar is a TtlError naming it, and nothing is written', async () => {
      await expect(samples().upsert(sample('pw-zero'), { ttl: 0 })).rejects.toMatchObject({
        code: 'TTL_NOT_POSITIVE',
        value: 0,
      });
      expect(await samples().get('pw-zero')).toBeUndefined();
      await samples().upsert(sample('pw-negative'));
      await expect(samples().setTtl('pw-negative', -5)).rejects.toMatchObject({ value: -5 });
    });
  });

  describe('unit of work', () => {
    /** Redis Cluster: a unit spanning partitions (Sample has none: one slot per record) is refused, nothing written. */
    const refusedAcrossSlots = async (work: Promise<unknown>) => {
      expect(await work.catch((e: unknown) => e)).toMatchObject({ code: 'REDIS_CROSS_SLOT', store: 'redis' });
    };

    test('commit writes every operation in order, with the commit ttl as the fallback', async () => {
      if (store.can.unitOfWorkInOnePartition) {
        const orders = db().repository(Order);
        await orders.upsert(order('uw', 'gone', 1));
        await db()
          .unitOfWork()
          .upsert(order('uw', 'a', 1))
          .insert(order('uw', 'b', 2))
          .delete(Order, { userId: 'uw', id: 'gone' })
          .upsert(order('uw', 'b', 3))
          .commit();
        expect(await orders.get({ userId: 'uw', id: 'gone' })).toBeUndefined();
        expect(await orders.get({ userId: 'uw', id: 'b' })).toMatchObject({ total: 3 });
        // The commit TTL is the fallback, one Sample (one slot) per unit.
        await db().unitOfWork().upsert(sample('uw-a')).commit({ ttl: 120 });
        await db().unitOfWork().insert(sample('uw-b'), { ttl: 'never' }).commit({ ttl: 120 });
        expect(await samples().ttl('uw-b')).toBeNull();
        const left = await samples().ttl('uw-a');
        expect(left).toBeGreaterThan(105);
        expect(left).toBeLessThanOrEqual(120);
        await samples().upsert(sample('uw-gone'));
        await refusedAcrossSlots(
          db().unitOfWork().upsert(sample('uw-c')).delete(Sample, 'uw-gone').commit({ ttl: 120 }),
        );
        expect(await samples().get('uw-c')).toBeUndefined();
        expect(await samples().get('uw-gone')).toBeDefined();
        return;
      }
      await samples().upsert(sample('uw-gone'));
      await db()
        .unitOfWork()
        .upsert(sample('uw-a'))
        .insert(sample('uw-b'), { ttl: 'never' })
        .delete(Sample, 'uw-gone')
        .commit({ ttl: 120 });
      expect(await samples().get('uw-gone')).toBeUndefined();
      expect(await samples().ttl('uw-b')).toBeNull();
      const left = await samples().ttl('uw-a');
      expect(left).toBeGreaterThan(105);
      expect(left).toBeLessThanOrEqual(120);
    });

    test(
      store.can.atomicUnitOfWork
        ? 'a failing commit writes nothing (atomic)'
        : 'a failing commit says exactly what stayed written',
      async () => {
        if (store.can.unitOfWorkInOnePartition) {
          const orders = db().repository(Order);
          await orders.upsert(order('uw', 'dup', 1));
          const failure = await db()
            .unitOfWork()
            .upsert(order('uw', 'first', 1))
            .insert(order('uw', 'dup', 2))
            .commit()
            .catch((e: unknown) => e);
          expect(failure).toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY, store: store.can.storeName });
          expect(await orders.get({ userId: 'uw', id: 'first' })).toBeUndefined();
          expect(await orders.get({ userId: 'uw', id: 'dup' })).toMatchObject({ total: 1 });
          await refusedAcrossSlots(
            db()
              .unitOfWork()
              .upsert(sample('uw-first'))
              .upsert(order('uw', 'x', 1))
              .commit(),
          );
          expect(await samples().get('uw-first')).toBeUndefined();
          return;
        }
        await samples().upsert(sample('uw-dup'));
        const failure = await db()
          .unitOfWork()
          .upsert(sample('uw-first'))
          .upsert(order('uw', 'other-collection', 1))
          .insert(sample('uw-dup'))
          .commit()
          .catch((e: unknown) => e);
        expect(failure).toMatchObject({ store: store.can.storeName });
        const first = await samples().get('uw-first');
        if (store.can.atomicUnitOfWork) {
          expect(failure).toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY });
          expect(first).toBeUndefined();
          expect(await db().repository(Order).get({ userId: 'uw', id: 'other-collection' })).toBeUndefined();
        } else if (first !== undefined) {
          expect((failure as Error).message).toMatch(/written|committed/);
        }
      },
    );
  });

  describe('schema', () => {
    test('ensureCollections() is idempotent: a second run changes nothing and the plan is empty', async () => {
      await db().ensureCollections();
      const plan = await db().plan();
      expect(plan.steps).toEqual([]);
    });

    test('the explain entry carries the documented fields', async () => {
      const entry = (await db().explain()).entries.find((e) => e.entity === 'Sample');
      expect(entry).toMatchObject({
        entity: 'Sample',
        collection: `${prefix}_sample`,
        store: store.can.storeName,
        mechanism: store.can.mechanism,
        seconds: 3600,
      });
      const support = (value: string) => entry?.perWrite.find((r) => r.value === value)?.support;
      for (const value of ['duration', 'default', 'never']) expect(support(value)).not.toBe('unsupported');
      expect(support('keep') === 'unsupported').toBe(!store.can.supportsKeep);
      expect(support('extend') === 'unsupported').toBe(!store.can.supportsExtend);
      for (const field of ['countsFrom', 'materializedBy', 'deletion', 'changeEffect', 'limits', 'warnings', 'text']) {
        expect(entry).toHaveProperty(field);
      }
      expect(typeof entry?.expiredVisibleUntilDeleted).toBe('boolean');
    });
  });
});
