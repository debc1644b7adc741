/**
 * Contract: an insert of a key that holds a live record is one error on every store (issue 14):
 * the same code, class, fields and wording, from insert() and from a unit of work, naming the
 * entity, the collection, the key and what to do. Only what a store's commit really left differs.
 */
import { ErrorCodes, StoreError } from '../../src';
import { contractModel, order, Order, sample, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cd${process.pid % 10000}`;

const INSERT_HINT = 'use upsert() to overwrite it, or delete() it first';

async function failureOf(work: Promise<unknown>): Promise<StoreError> {
  const failure = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(StoreError);
  return failure as StoreError;
}

forEachStore('duplicate key', contractModel(prefix), prefix, (store, db) => {
  const place = (entity: string) => ({
    code: ErrorCodes.DUPLICATE_KEY,
    entity,
    member: undefined,
    store: store.can.storeName,
  });

  test('insert(): the one wording, naming the collection and the key', async () => {
    await db().repository(Sample).upsert(sample('dup-1'));
    const failure = await failureOf(db().repository(Sample).insert(sample('dup-1')));
    const detail = `insert into '${prefix}_sample': a live record with key "dup-1" already exists`;
    expect(failure).toMatchObject({ ...place('Sample'), detail, hint: INSERT_HINT });
    expect(failure.message).toBe(`Sample [${store.can.storeName}]: ${detail} — ${INSERT_HINT}`);
  });

  test('insert(): a compound key is shown member by member', async () => {
    await db()
      .repository(Order)
      .upsert(order('u-dup', 'a', 1));
    const failure = await failureOf(
      db()
        .repository(Order)
        .insert(order('u-dup', 'a', 2)),
    );
    expect(failure).toMatchObject({
      ...place('Order'),
      detail: `insert into '${prefix}_order': a live record with key {"userId":"u-dup","id":"a"} already exists`,
      hint: INSERT_HINT,
    });
  });

  test('unit of work: the same wording, with what the commit left', async () => {
    await db().repository(Sample).upsert(sample('dup-2'));
    const failure = await failureOf(db().unitOfWork().insert(sample('dup-2')).commit());
    expect(failure).toMatchObject(place('Sample'));
    expect(failure.detail).toMatch(
      new RegExp(`^unit of work insert into '${prefix}_sample': a live record with key "dup-2" already exists; \\S`),
    );
    // Its only operation failed: nothing was written, on every store.
    expect(failure.hint).toBe(`nothing was written: in a new unitOfWork(), ${INSERT_HINT}`);
  });
});
