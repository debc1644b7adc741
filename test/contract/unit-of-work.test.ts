/**
 * Contract: a unit of work commits once on every store (issue 14). After any commit, successful or
 * failed, it takes nothing more and re-sends nothing: a retry is UOW_ALREADY_COMMITTED, never a
 * success that wrote nothing. Every write is checked before anything is sent. Gathered here from
 * the copies the Cassandra, Cosmos and relational suites held.
 */
import { ErrorCodes, LifespanError } from '../../src';
import { contractModel, sample, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cu${process.pid % 10000}`;

forEachStore('unit of work, once', contractModel(prefix), prefix, (store, db) => {
  const committed = { code: ErrorCodes.UOW_ALREADY_COMMITTED, store: store.can.storeName };
  const samples = () => db().repository(Sample);

  test('after a successful commit it takes nothing more and re-sends nothing', async () => {
    const done = db().unitOfWork().upsert(sample('once'));
    await done.commit();
    await samples().delete('once');
    expect(() => done.insert(sample('again'))).toThrow(expect.objectContaining(committed));
    expect(() => done.upsert(sample('again'))).toThrow(expect.objectContaining(committed));
    expect(() => done.delete(Sample, 'again')).toThrow(expect.objectContaining(committed));
    await expect(done.commit()).rejects.toMatchObject(committed);
    expect(await samples().getMany(['once', 'again'])).toEqual([]);
  });

  test('after a failed commit a retry is UOW_ALREADY_COMMITTED (saying what to do) and sends nothing again', async () => {
    await samples().insert(sample('taken'));
    const failed = db().unitOfWork().upsert(sample('would-be')).insert(sample('taken'));
    await expect(failed.commit()).rejects.toMatchObject({ store: store.can.storeName });
    await samples().delete('taken');
    // The key is free now, yet the failed unit of work does not try again.
    const retry = await failed.commit().catch((e: unknown) => e);
    expect(retry).toBeInstanceOf(LifespanError);
    expect(retry).toMatchObject(committed);
    expect((retry as LifespanError).hint).toContain('unitOfWork()');
    expect(await samples().get('taken')).toBeUndefined();
    if (store.can.atomicUnitOfWork) expect(await samples().get('would-be')).toBeUndefined();
  });

  test('a write refused while it is checked fails the commit before anything is sent, and spends the unit', async () => {
    const invalid = db()
      .unitOfWork()
      .upsert(sample('checked-first'))
      .upsert(sample('checked-bad', { count: 1.5 }));
    await expect(invalid.commit()).rejects.toMatchObject({ code: ErrorCodes.VALUE_INVALID, member: 'count' });
    expect(await samples().getMany(['checked-first', 'checked-bad'])).toEqual([]);
    await expect(invalid.commit()).rejects.toMatchObject(committed);
  });

  test('a unit whose only write is a duplicate insert is DUPLICATE_KEY and changes nothing', async () => {
    await samples().upsert(sample('dup-only', { text: 'stored' }));
    await expect(
      db()
        .unitOfWork()
        .insert(sample('dup-only', { text: 'clash' }))
        .commit(),
    ).rejects.toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY, store: store.can.storeName });
    expect(await samples().get('dup-only')).toMatchObject({ text: 'stored' });
  });

  test('operations on one record run as if one by one: delete then insert replaces, insert then delete leaves nothing', async () => {
    await samples().upsert(sample('row-replaced', { text: 'old' }));
    await db()
      .unitOfWork()
      .delete(Sample, 'row-replaced')
      .insert(sample('row-replaced', { text: 'new' }))
      .commit();
    expect(await samples().get('row-replaced')).toMatchObject({ text: 'new' });
    await db().unitOfWork().insert(sample('row-gone')).delete(Sample, 'row-gone').commit();
    expect(await samples().get('row-gone')).toBeUndefined();
    await expect(
      db().unitOfWork().insert(sample('row-twice')).insert(sample('row-twice')).commit(),
    ).rejects.toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY, store: store.can.storeName });
  });

  test('an empty unit commits once too', async () => {
    const empty = db().unitOfWork();
    await empty.commit();
    await expect(empty.commit()).rejects.toMatchObject(committed);
  });
});
