/** The in-memory MongoDB fake answers as the server does, or refuses what it does not model. */
import { MemoryDb } from './memory-db';

describe('MongoDB in-memory fake', () => {
  test('dropIndexes answers how many indexes the collection had before (the _id index included)', async () => {
    const db = new MemoryDb();
    await db.command({ createIndexes: 'c', indexes: [{ key: { at: 1 }, name: 'at_1', expireAfterSeconds: 60 }] });
    await db.command({ createIndexes: 'c', indexes: [{ key: { owner: 1 }, name: 'owner_1' }] });
    expect(await db.command({ dropIndexes: 'c', index: 'owner_1' })).toEqual({ nIndexesWas: 3, ok: 1 });
    expect(await db.command({ dropIndexes: 'c', index: 'at_1' })).toEqual({ nIndexesWas: 2, ok: 1 });
  });

  test('find() refuses options it does not model instead of ignoring them', async () => {
    const db = new MemoryDb();
    db.seed('c', [{ _id: 'b' }, { _id: 'a' }]);
    const c = db.collection('c');
    expect(await c.find({}, { useBigInt64: true, limit: 1 }).toArray()).toHaveLength(1);
    // sort is modelled (findPage / deleteMany walk _id in order): applied before limit, as the server does.
    expect(await c.find({}, { useBigInt64: true, sort: { _id: 1 }, limit: 1 }).toArray()).toEqual([{ _id: 'a' }]);
    for (const extra of [{ projection: { _id: 1 } }, { skip: 1 }]) {
      expect(() => c.find({}, { useBigInt64: true, ...extra })).toThrow(/does not model/);
    }
  });

  test('a partial index is refused: the TTL monitor would otherwise expire documents outside its filter', async () => {
    const db = new MemoryDb();
    const spec = { key: { at: 1 }, name: 'at_1', expireAfterSeconds: 60, partialFilterExpression: { kind: 'x' } };
    await expect(db.command({ createIndexes: 'c', indexes: [spec] })).rejects.toThrow(/partialFilterExpression/);
  });
});
