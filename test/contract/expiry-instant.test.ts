/**
 * Issue 25, finding 1 (expire at an instant) and "read the instant back", on every store of the
 * contract table: `{ at: Date }` on insert, upsert, a unit of work (per operation and as the commit
 * ttl) and setTtl; repository.expiresAt(key) for every state of a record; the refusals (an instant
 * not in the future, an invalid Date, a mixed value, one past the store's limit) writing nothing;
 * and the record really gone after its instant where the test bed's store enforces expiry.
 */
import { TtlError, type PerWriteTtl } from '../../src';
import { letInstantPass, observedExpiry } from './expiry-observed';
import { contractModel, sample, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cx${process.pid % 10000}`;
const inMs = (ms: number) => new Date(Date.now() + ms);
/** An instant with milliseconds, so a store that rounds to seconds would show. */
const soon = () => inMs(3600_000 + 123);

forEachStore('expiry instants', contractModel(prefix), prefix, (store, db, raw) => {
  const samples = () => db().repository(Sample);
  const slack = store.can.instantSlackMs;

  /** expiresAt() of `id` is `at`: exact, or within the store's documented slack. */
  async function expectExpiresAt(id: string, at: Date): Promise<void> {
    const read = await samples().expiresAt(id);
    expect(read).toBeInstanceOf(Date);
    if (slack === 0) expect(read?.toISOString()).toBe(at.toISOString());
    else expect(Math.abs((read as Date).getTime() - at.getTime())).toBeLessThanOrEqual(slack);
  }

  describe('{ at: Date } on every write path', () => {
    test('upsert and insert: the record expires at the instant', async () => {
      const at = soon();
      await samples().upsert(sample('at-upsert'), { ttl: { at } });
      await expectExpiresAt('at-upsert', at);
      const later = inMs(7200_000 + 456);
      await samples().insert(sample('at-insert'), { ttl: { at: later } });
      await expectExpiresAt('at-insert', later);
      const left = await samples().ttl('at-insert');
      expect(left).toBeGreaterThan(7200 - 15);
      expect(left).toBeLessThanOrEqual(7202);
    });

    test('a unit of work: { at } per operation and as the commit ttl', async () => {
      const own = soon();
      const shared = inMs(5400_000 + 789);
      if (store.can.unitOfWorkInOnePartition) {
        // Redis Cluster: a unit stays in one partition, and each Sample (no @PartitionKey) is its own.
        await db()
          .unitOfWork()
          .upsert(sample('at-uow-own'), { ttl: { at: own } })
          .commit({ ttl: { at: shared } });
        await db()
          .unitOfWork()
          .insert(sample('at-uow-shared'))
          .commit({ ttl: { at: shared } });
      } else {
        await db()
          .unitOfWork()
          .upsert(sample('at-uow-own'), { ttl: { at: own } })
          .insert(sample('at-uow-shared'))
          .commit({ ttl: { at: shared } });
      }
      await expectExpiresAt('at-uow-own', own);
      await expectExpiresAt('at-uow-shared', shared);
    });

    test('setTtl(key, { at }) moves the expiry to the instant; on a missing key it is false', async () => {
      await samples().upsert(sample('at-set'), { ttl: 60 });
      const at = inMs(86400_000 + 321);
      expect(await samples().setTtl('at-set', { at })).toBe(true);
      await expectExpiresAt('at-set', at);
      expect(await samples().get('at-set')).toMatchObject({ id: 'at-set' });
      expect(await samples().setTtl('at-set-missing', { at })).toBe(false);
      expect(await samples().get('at-set-missing')).toBeUndefined();
    });

    test("the caller's Date is copied: changing it after the call does not move the expiry", async () => {
      const at = soon();
      const expected = new Date(at.getTime());
      const write = samples().upsert(sample('at-copied'), { ttl: { at } });
      at.setTime(at.getTime() + 999_000);
      await write;
      await expectExpiresAt('at-copied', expected);
    });
  });

  describe('refusals: a TtlError naming the value, and nothing written', () => {
    const refusals: Array<[string, () => PerWriteTtl, string]> = [
      ['an instant in the past', () => ({ at: inMs(-60_000) }), 'TTL_AT_NOT_FUTURE'],
      ['the instant now', () => ({ at: new Date() }), 'TTL_AT_NOT_FUTURE'],
      ['an invalid Date', () => ({ at: new Date('not a date') }), 'TTL_INVALID_AT'],
      ['a string instead of a Date', () => ({ at: '2030-01-01' }) as unknown as PerWriteTtl, 'TTL_INVALID_AT'],
      ['at mixed with a duration part', () => ({ at: soon(), hours: 1 }) as unknown as PerWriteTtl, 'TTL_INVALID_AT'],
      ['at mixed with extend', () => ({ at: soon(), extend: 60 }) as unknown as PerWriteTtl, 'TTL_INVALID_EXTEND'],
    ];
    test.each(refusals)('%s', async (label, ttl, code) => {
      const id = `at-bad-${label.replace(/\W/g, '')}`;
      const value = ttl();
      await expect(samples().upsert(sample(id), { ttl: value })).rejects.toBeInstanceOf(TtlError);
      await expect(samples().insert(sample(id), { ttl: value })).rejects.toMatchObject({ code });
      await expect(db().unitOfWork().upsert(sample(id)).commit({ ttl: value })).rejects.toMatchObject({ code });
      expect(await samples().get(id)).toBeUndefined();
      await samples().upsert(sample(id), { ttl: 600 });
      await expect(samples().setTtl(id, value)).rejects.toMatchObject({ code });
      const left = await samples().ttl(id);
      expect(left).toBeGreaterThan(600 - 15);
      expect(left).toBeLessThanOrEqual(600);
    });

    test('the message names the instant and the clock it was judged with', async () => {
      const at = new Date('2001-02-03T04:05:06.789Z');
      const refused = samples().upsert(sample('at-named'), { ttl: { at } });
      await expect(refused).rejects.toMatchObject({ value: at, store: store.can.storeName, entity: 'Sample' });
      await expect(samples().upsert(sample('at-named'), { ttl: { at } })).rejects.toThrow(
        /2001-02-03T04:05:06.789Z is not in the future \(now by .*clock/,
      );
    });

    const far = new Date(Date.UTC(2200, 0, 1));
    const tooLate = store.can.instantBoundedByTtl || store.can.emulatesExpiry;
    test(`an instant past the store's limit is ${tooLate ? 'TTL_AT_TOO_LATE' : 'kept as given'}`, async () => {
      // Cassandra (20 years) and Cosmos DB (2^31-1 s) bound the computed TTL; relational columns end at 9999.
      const at = store.can.emulatesExpiry ? new Date(Date.UTC(10000, 0, 1)) : far;
      const write = samples().upsert(sample('at-far'), { ttl: { at } });
      if (!tooLate) {
        await write;
        await expectExpiresAt('at-far', at);
        return;
      }
      await expect(write).rejects.toMatchObject({ code: 'TTL_AT_TOO_LATE', value: at });
      expect(await samples().get('at-far')).toBeUndefined();
    });
  });

  describe('expiresAt(key)', () => {
    test('the entity default: about now + 3600 s', async () => {
      const before = Date.now();
      await samples().upsert(sample('ea-default'));
      const read = (await samples().expiresAt('ea-default')) as Date;
      expect(read.getTime()).toBeGreaterThanOrEqual(before + 3600_000 - 2000);
      expect(read.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000 + 2000);
    });

    test("'never': null; a missing key: undefined; a deleted record: undefined", async () => {
      await samples().upsert(sample('ea-never'), { ttl: 'never' });
      expect(await samples().expiresAt('ea-never')).toBeNull();
      expect(await samples().expiresAt('ea-missing')).toBeUndefined();
      await samples().upsert(sample('ea-deleted'), { ttl: { at: soon() } });
      await samples().delete('ea-deleted');
      expect(await samples().expiresAt('ea-deleted')).toBeUndefined();
    });
  });

  const observed = observedExpiry(store, 'its instant');
  (observed.runs ? test : test.skip)(observed.title, async () => {
    const at = inMs(1500);
    await samples().upsert(sample('at-real'), { ttl: { at } });
    expect(await samples().get('at-real')).toMatchObject({ id: 'at-real' });
    if (!(await letInstantPass(store, raw(), at))) return;
    expect(await samples().get('at-real')).toBeUndefined();
    expect(await samples().expiresAt('at-real')).toBeUndefined();
    if (store.can.expiryObservedBy === 'purge') {
      const purged = await db().purgeExpired();
      expect(purged.deleted).toBeGreaterThanOrEqual(1);
    }
  });
});
