/**
 * Contract (issue 26): deleteMany(where) on every store deletes the live matches in batches, returns
 * how many it deleted, and spares a record rewritten after its batch selected it (each store's
 * re-check: the relational expiry, MongoDB's whole document, Cosmos DB's etag, Cassandra's write
 * timestamp, Redis's value and PEXPIRETIME). Expired records: pages-expiry.test.ts.
 */
import { LifespanError } from '../../src';
import { AFTER_SELECT } from '../../src/runtime/delete-many';
import { ids, item, Item, line, Line, pageModel } from './page-models';
import { forEachStore } from './stores';

const prefix = `dm${process.pid % 10000}`;

async function failure(call: () => Promise<unknown>): Promise<LifespanError> {
  try {
    await call();
  } catch (error) {
    return error as LifespanError;
  }
  throw new Error('expected a failure');
}

forEachStore('deleteMany', pageModel(prefix), prefix, (store, db) => {
  const items = () => db().repository(Item);

  test('deletes every live match in batches and returns the count; other records stay', async () => {
    const repo = items();
    for (const id of ids('d', 12)) await repo.insert(item(id, 'd'));
    for (const id of ids('e', 3)) await repo.insert(item(id, 'e'));
    const batches: number[] = [];
    const options = { batchSize: 5, [AFTER_SELECT]: (n: number) => void batches.push(n) };
    expect(await repo.deleteMany({ group: 'd' }, options)).toBe(12);
    expect(batches.every((n) => n <= 5)).toBe(true);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(await repo.count({ group: 'd' })).toBe(0);
    expect((await repo.find({ group: 'e' })).map((i) => i.id).sort()).toEqual(ids('e', 3));
    expect(await repo.deleteMany({ group: 'd' })).toBe(0);
  });

  test('a compound-key partition is deleted by its partition member', async () => {
    const lines = db().repository(Line);
    for (let n = 1; n <= 6; n++) await lines.insert(line('p1', n));
    await lines.insert(line('p2', 1));
    expect(await lines.deleteMany({ orderId: 'p1' }, { batchSize: 4 })).toBe(6);
    expect(await lines.count({ orderId: 'p1' })).toBe(0);
    expect(await lines.exists({ orderId: 'p2', line: 1 })).toBe(true);
  });

  test('a record rewritten after its batch selected it survives and is not counted', async () => {
    const repo = items();
    for (const id of ids('r', 4)) await repo.insert(item(id, 'r'));
    let rewritten = false;
    const rewrite = async () => {
      if (rewritten) return;
      rewritten = true;
      // Still a match: only the re-check of the selected record can spare it.
      await repo.upsert(item('r01', 'r', 99), { ttl: 7200 });
    };
    const options = { batchSize: 10, [AFTER_SELECT]: rewrite };
    expect(await repo.deleteMany({ group: 'r' }, options)).toBe(3);
    expect(await repo.get('r01')).toMatchObject({ group: 'r', n: 99 });
    expect(await repo.count({ group: 'r' })).toBe(1);
  });

  test('a rewrite of a record without expiry, between select and delete, is spared', async () => {
    const lines = db().repository(Line);
    for (let n = 1; n <= 3; n++) await lines.insert(line('w1', n));
    const rewrite = async () => {
      await lines.upsert(Object.assign(line('w1', 2), { sku: 'rewritten' }));
    };
    const options = { batchSize: 10, [AFTER_SELECT]: rewrite };
    expect(await lines.deleteMany({ orderId: 'w1' }, options)).toBe(2);
    expect(await lines.get({ orderId: 'w1', line: 2 })).toMatchObject({ sku: 'rewritten' });
  });

  test('a rewrite that keeps the same expiry instant, between select and delete, is spared', async () => {
    const repo = items();
    const at = new Date(Date.now() + 3_600_000);
    for (const id of ids('q', 3)) await repo.insert(item(id, 'q'), { ttl: { at } });
    const rewrite = async () => {
      await repo.upsert(item('q01', 'q', 42), { ttl: { at } });
    };
    const options = { batchSize: 10, [AFTER_SELECT]: rewrite };
    expect(await repo.deleteMany({ group: 'q' }, options)).toBe(2);
    expect(await repo.get('q01')).toMatchObject({ group: 'q', n: 42 });
  });

  test('an empty filter needs { all: true }; options are checked before anything is deleted', async () => {
    const repo = items();
    await repo.insert(item('keep', 'k'));
    const refusals = [
      await failure(() => repo.deleteMany({})),
      await failure(() => repo.deleteMany(undefined as never)),
      await failure(() => repo.deleteMany({ group: 'k' }, { batchSize: 0 })),
      await failure(() => repo.deleteMany({ group: 'k' }, { batchSize: 10_001 })),
      await failure(() => repo.deleteMany({ group: 'k' }, { all: 'yes' as never })),
      await failure(() => repo.deleteMany({ group: 'k' }, { batch: 5 } as never)),
      await failure(() => repo.deleteMany(null as never)),
    ];
    for (const error of refusals) {
      expect(error).toBeInstanceOf(LifespanError);
      expect({ code: error.code, store: error.store }).toEqual({ code: 'BAD_ARGUMENT', store: store.can.storeName });
    }
    expect(refusals[0]?.hint).toMatch(/all: true/);
    expect(refusals[2]?.hint).toMatch(/default 500\)/);
    expect((await failure(() => repo.deleteMany({ colour: 'x' } as never))).code).toBe('UNKNOWN_MEMBER');
    expect(await repo.exists('keep')).toBe(true);
    const lines = db().repository(Line);
    await lines.insert(line('all', 1));
    expect(await lines.deleteMany({}, { all: true })).toBeGreaterThanOrEqual(1);
    expect(await lines.count()).toBe(0);
  });
});
