/**
 * Contract: @CreatedAt is history (issue 14). A new record is stamped with now; an upsert over a
 * stored record keeps the stored value, even when the instance holds another one, through a
 * repository and through a unit of work. Gathered here from the Cosmos, relational and Cassandra
 * suites; how each store keeps it (a script, $ifNull, a read before the write) stays in its folder.
 * A write stamps the stored record, never the caller's instance; the records of one unit of work
 * carry one instant (issue 29: the relational store stamped the instance, one Date a row).
 */
import 'reflect-metadata';
import { CreatedAt, Entity, Field, Key, ModelBuilder } from '../../src';
import { CONTRACT_STORES, forEachStore } from './stores';

const prefix = `cc${process.pid % 10000}`;

@Entity()
class Memo {
  @Key() id = '';
  @Field() text = '';
  @CreatedAt() createdAt = new Date(0);
}

const model = new ModelBuilder().entity(Memo, (e) => e.toCollection(`${prefix}_memo`)).build();
/** A fresh instance: its createdAt is the new Date(0) placeholder, which lifespan stamps. */
const memo = (id: string, text: string, createdAt?: Date) =>
  Object.assign(new Memo(), { id, text }, createdAt ? { createdAt } : {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachStore('@CreatedAt', model, prefix, (_store, db) => {
  const memos = () => db().repository(Memo);

  test('a new record is stamped with now; an upsert keeps the stored value, even one the caller set', async () => {
    await memos().insert(memo('c1', 'first'));
    const created = (await memos().get('c1'))?.createdAt;
    expect(created).toBeInstanceOf(Date);
    expect(Math.abs(created!.getTime() - Date.now())).toBeLessThan(60_000);
    await sleep(20);
    await memos().upsert(memo('c1', 'second'));
    expect(await memos().get('c1')).toMatchObject({ text: 'second', createdAt: created });
    await memos().upsert(memo('c1', 'third', new Date('2030-01-01T00:00:00Z')));
    expect(await memos().get('c1')).toMatchObject({ text: 'third', createdAt: created });
  });

  test('an upsert of a new record stamps it; a unit of work keeps the stored value too', async () => {
    await memos().upsert(memo('c2', 'new'));
    const created = (await memos().get('c2'))?.createdAt;
    expect(Math.abs(created!.getTime() - Date.now())).toBeLessThan(60_000);
    await sleep(20);
    await db().unitOfWork().upsert(memo('c2', 'in a unit')).commit();
    expect(await memos().get('c2')).toMatchObject({ text: 'in a unit', createdAt: created });
  });
});

/**
 * The stores whose timestamps are the client's (MongoDB stamps with the server's $$NOW, per write)
 * and whose unit of work takes records of many partitions (a Redis Cluster's takes one slot; it
 * runs the one-server code).
 */
const CLIENT_STAMPED = CONTRACT_STORES.filter(
  (s) => !s.name.startsWith('mongodb') && !s.can.unitOfWorkInOnePartition,
).map((s) => s.name);

forEachStore("@CreatedAt, the caller's instance", model, `${prefix}i`, (_store, db) => {
  const memos = () => db().repository(Memo);

  test('insert, upsert and a unit of work stamp the stored record and leave the instance as given', async () => {
    const inserted = memo('i1', 'inserted');
    const upserted = memo('i2', 'upserted');
    const queued = memo('i3', 'queued');
    await memos().insert(inserted);
    await memos().upsert(upserted);
    await db().unitOfWork().insert(queued).commit();
    for (const given of [inserted, upserted, queued]) {
      expect(given.createdAt.getTime()).toBe(0);
      const stored = (await memos().get(given.id))?.createdAt;
      expect(Math.abs(stored!.getTime() - Date.now())).toBeLessThan(60_000);
    }
  });
});

forEachStore(
  '@CreatedAt, one unit of work',
  model,
  `${prefix}u`,
  (store, db) => {
    test('the records of one unit of work carry one instant', async () => {
      const unit = db().unitOfWork();
      // Enough records that stamping them one by one spans milliseconds (Cosmos's test server is
      // slow per item; a Cassandra unit is one batch, which the node refuses past its size limit).
      const size = store.name.startsWith('cosmos') || store.name === 'cassandra' ? 300 : 3000;
      const ids = Array.from({ length: size }, (_, i) => `u${i}`);
      for (const id of ids) unit.insert(memo(id, 'in one unit'));
      await unit.commit();
      const stamps = new Set<number>();
      const stored = await db().repository(Memo).getMany(ids);
      expect(stored).toHaveLength(size);
      for (const record of stored) stamps.add(record.createdAt.getTime());
      expect([...stamps]).toHaveLength(1);
    });
  },
  CLIENT_STAMPED,
);
