/**
 * Contract: ensureCollections() is one flow on every store (issue 14): its options argument is
 * checked the same way (BAD_ARGUMENT naming the call, before anything is inspected or changed), and
 * a run over a schema that is already in place applies nothing. Several contexts racing to create
 * the same schema all succeed (how each store settles the race is pinned in its own folder).
 */
import { ErrorCodes, LifespanError } from '../../src';
import { contractModel } from './models';
import { CONTRACT_STORES, forEachStore, type OpenedContract } from './stores';

const prefix = `ce${process.pid % 10000}`;

forEachStore('ensureCollections', contractModel(prefix), prefix, (store, db) => {
  test.each([
    ['a number', 5],
    ['null', null],
    ['a string', 'yes'],
    ['an array', []],
  ])('ensureCollections(%s) is BAD_ARGUMENT naming the call', async (_label, options) => {
    const failure = db().ensureCollections(options as never);
    await expect(failure).rejects.toBeInstanceOf(LifespanError);
    await expect(failure).rejects.toMatchObject({
      code: ErrorCodes.BAD_ARGUMENT,
      store: store.can.storeName,
      detail: expect.stringContaining('ensureCollections()'),
    });
  });

  test.each([
    ['no options', undefined],
    ['an empty object', {}],
    ['allowRetroactive', { allowRetroactive: true }],
  ])('with %s, a second run applies nothing', async (_label, options) => {
    await expect(db().ensureCollections(options)).resolves.toEqual({ applied: [] });
  });
});

for (const store of CONTRACT_STORES) {
  store.describe('ensureCollections from several contexts at once', () => {
    let opened: OpenedContract | undefined;
    afterAll(async () => {
      await opened?.close();
    });

    // On SQLite the contexts share knex's one connection: their runs take turns on it.
    test('every run succeeds on an empty database, and the schema is then in place', async () => {
      const model = contractModel(`${prefix}race`);
      opened = await store.open(model, `${prefix}race`);
      expect(opened.sibling).toBeDefined();
      const siblings = await Promise.all([1, 2, 3].map(() => opened!.sibling!(model)));
      await Promise.all([opened.db, ...siblings].map((context) => context.ensureCollections()));
      expect((await opened.db.plan()).steps).toEqual([]);
    });
  });
}
