/**
 * Contract: @CreatedAt is history (issue 14). A new record is stamped with now; an upsert over a
 * stored record keeps the stored value, even when the instance holds another one, through a
 * repository and through a unit of work. Gathered here from the Cosmos, relational and Cassandra
 * suites; how each store keeps it (a script, $ifNull, a read before the write) stays in its folder.
 */
import 'reflect-metadata';
import { CreatedAt, Entity, Field, Key, ModelBuilder } from '../../src';
import { forEachStore } from './stores';

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
