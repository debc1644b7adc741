/**
 * What a Cassandra unit of work sends, without a server (a recording client): the statements, their
 * bound values in the INSERT's order with the TTL last, the key checks of a multi-partition unit,
 * the batch options, and that a refused value sends nothing.
 */
import 'reflect-metadata';
import { CreatedAt, Entity, Field, Key, LifespanError, ModelBuilder, TimeToLive, connect } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { isSystemRead, recordingClient } from './recording-client';

@Entity('sessions')
@TimeToLive({ ttl: '1h', perWrite: true })
class Session {
  @Key() id = '';
  @Field() owner = '';
  @Field({ type: 'integer' }) hits = 0;
  @CreatedAt() createdAt = new Date(0);
}

const model = new ModelBuilder().entity(Session).build();

async function unitSent(write: (db: Awaited<ReturnType<typeof connect>>) => Promise<void>) {
  const client = recordingClient();
  const db = await connect(model, new CassandraStore({ client: client as never, keyspace: 'ks' }));
  await write(db);
  await db.close();
  return client.sent.filter((s) => !isSystemRead(s));
}

const session = (id: string, hits: number) => Object.assign(new Session(), { id, owner: 'o', hits });
const INSERT = 'INSERT INTO "ks"."sessions" ("id", "owner", "hits", "createdAt") VALUES (?, ?, ?, ?)';

test('a unit of inserts across partitions: one key check each, then one logged batch of plain INSERTs, TTL last', async () => {
  const sent = await unitSent(async (db) => {
    const uow = db.unitOfWork();
    uow.insert(session('a', 1), { ttl: 60 });
    uow.insert(session('b', 2), { ttl: 'never' });
    uow.insert(session('c', 3));
    await uow.commit();
  });
  const check = 'SELECT "id" FROM "ks"."sessions" WHERE "id" = ? LIMIT 1';
  expect(sent.map((s) => [s.query, s.params, s.options])).toEqual([
    [check, ['a'], { prepare: true }],
    [check, ['b'], { prepare: true }],
    [check, ['c'], { prepare: true }],
    ['BATCH', [], { prepare: true, logged: true }],
  ]);
  const batch = sent[3];
  expect(batch?.batch).toEqual([`${INSERT} USING TTL ?`, `${INSERT} USING TTL ?`, INSERT]);
  const stamped = batch?.batchParams?.[0]?.[3];
  expect(stamped).toBeInstanceOf(Date);
  expect(batch?.batchParams).toEqual([
    ['a', 'o', 1, stamped, 60],
    ['b', 'o', 2, stamped, 0],
    ['c', 'o', 3, stamped],
  ]);
});

test('one partition: a conditional batch (IF NOT EXISTS) and no key check; a later upsert keeps the first createdAt', async () => {
  const first = new Date('2026-03-01T00:00:00Z');
  const sent = await unitSent(async (db) => {
    const uow = db.unitOfWork();
    uow.insert(Object.assign(session('a', 1), { createdAt: first }), { ttl: 60 });
    uow.upsert(Object.assign(session('a', 2), { createdAt: new Date('2026-04-01T00:00:00Z') }), { ttl: 90 });
    await uow.commit();
  });
  expect(sent.map((s) => [s.query, s.params])).toEqual([
    [`${INSERT} IF NOT EXISTS USING TTL ?`, ['a', 'o', 2, first, 90]],
  ]);
});

test('a refused value fails the commit before anything is sent, and inserting a row twice is a duplicate', async () => {
  const refused = await unitSent(async (db) => {
    const uow = db.unitOfWork();
    uow.insert(session('a', 1));
    uow.insert(session('b', 2 ** 40));
    const error: unknown = await uow.commit().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LifespanError);
    expect(error).toMatchObject({ code: 'VALUE_INVALID', member: 'hits' });
  });
  expect(refused).toEqual([]);
  const twice = await unitSent(async (db) => {
    const uow = db.unitOfWork();
    uow.insert(session('a', 1)).insert(session('a', 2));
    await expect(uow.commit()).rejects.toMatchObject({ code: 'STORE_DUPLICATE_KEY' });
  });
  expect(twice).toEqual([]);
});
