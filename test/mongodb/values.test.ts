/**
 * Values of the wrong type: each is a LifespanError with a shared code naming the entity and member,
 * raised before anything is sent (never a TypeError, never a silently stored value), pinned here by
 * the commands the recording stand-in saw. Arguments of the wrong kind are the contract suite's
 * (test/contract/call-arguments, repository-arguments, entity-lookup, arguments).
 */
import model, { Session } from '../../examples/models';
import { connect, LifespanError, ModelBuilder } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import { RecordingDb, type Responder } from './recording-db';
import { Blob, Typed } from './typed-entity';

const UPDATED = { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
const typedModel = new ModelBuilder().entity(Typed).entity(Blob).build();

async function open(respond: Responder = (call) => (call.op === 'updateOne' ? UPDATED : [])) {
  const db = new RecordingDb(respond);
  const ctx = await connect(typedModel, new MongoStore({ db }));
  return { db, ctx, typed: ctx.repository(Typed) };
}

const typed = (fields: Record<string, unknown>) => Object.assign(new Typed(), { id: 't1' }, fields) as Typed;

describe('writes: every member is checked against its declared type', () => {
  test('the reported case: a number id, a string in a number, a string in a date: VALUE_INVALID, nothing sent', async () => {
    const { db, typed: repo } = await open();
    const failure = repo.insert(typed({ id: 5, n: 'abc', when: 'not a date' }));
    await expect(failure).rejects.toBeInstanceOf(LifespanError);
    await expect(failure).rejects.toMatchObject({
      code: 'VALUE_INVALID',
      entity: 'Typed',
      member: 'id',
      store: 'mongodb',
      message: expect.stringContaining('value 5 is not a string'),
    });
    expect(db.dataCalls()).toEqual([]);
  });

  test.each([
    ['n', 'abc', 'is not a finite number'],
    ['n', Number.NaN, 'is not a finite number'],
    ['n', Number.POSITIVE_INFINITY, 'is not a finite number'],
    ['count', 1.5, 'is not a safe integer'],
    ['when', 'not a date', 'is not a valid Date'],
    ['when', new Date('nope'), 'value Invalid Date is not a valid Date'],
    ['when', 1767225600000, 'is not a valid Date'],
    ['flag', 'yes', 'is not a boolean'],
    ['meta', () => 1, 'is not a JSON-like value'],
    ['meta', { nested: Number.NaN }, 'is not a JSON-like value'],
    ['note', 42, 'is not a string'],
    ['n', undefined, 'is required (the member is not nullable)'],
    ['when', null, 'is required (the member is not nullable)'],
  ])(
    '%s = %p is VALUE_INVALID naming the member, on insert, upsert and in a unit of work',
    async (member, value, says) => {
      const { db, ctx, typed: repo } = await open();
      const expected = { code: 'VALUE_INVALID', entity: 'Typed', member, message: expect.stringContaining(says) };
      await expect(repo.insert(typed({ [member]: value }))).rejects.toMatchObject(expected);
      await expect(repo.upsert(typed({ [member]: value }))).rejects.toMatchObject(expected);
      await expect(
        ctx
          .unitOfWork()
          .insert(typed({ [member]: value }))
          .commit(),
      ).rejects.toMatchObject(expected);
      expect(db.dataCalls()).toEqual([]);
    },
  );

  test('a cyclic json value is refused, not left to crash the BSON serializer', async () => {
    const { typed: repo } = await open();
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    await expect(repo.insert(typed({ meta: cycle }))).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'meta' });
  });

  test('bigint: int64 range only; a safe integer number is written as a bigint (int64); binary must be bytes', async () => {
    const { db, ctx } = await open();
    const blobs = ctx.repository(Blob);
    const blob = (fields: Partial<Record<keyof Blob, unknown>>) =>
      Object.assign(new Blob(), { id: 'b' }, fields) as Blob;
    await expect(blobs.insert(blob({ big: 2n ** 63n }))).rejects.toMatchObject({
      code: 'VALUE_INVALID',
      member: 'big',
    });
    await expect(blobs.insert(blob({ big: 0.5 }))).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'big' });
    await expect(blobs.insert(blob({ bytes: 'hi' }))).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'bytes' });
    expect(db.dataCalls()).toEqual([]);
    await blobs.insert(blob({ big: 5, bytes: Buffer.from('x') }));
    const [write] = db.dataCalls();
    expect(write?.args[1]).toEqual([{ $set: { size: 0, big: 5n, bytes: { $literal: Buffer.from('x') } } }]);
  });

  test('a nullable member: null and undefined are both stored as null', async () => {
    const { db, typed: repo } = await open();
    await repo.insert(typed({ note: null }));
    await repo.insert(typed({ note: undefined }));
    const [a, b] = db.dataCalls();
    expect((a?.args[1] as Array<Record<string, Record<string, unknown>>>)[0]?.['$set']?.['note']).toBeNull();
    expect((b?.args[1] as Array<Record<string, Record<string, unknown>>>)[0]?.['$set']?.['note']).toBeNull();
  });

  test('a valid write goes out unchanged', async () => {
    const { db, typed: repo } = await open();
    const when = new Date('2026-05-01T00:00:00Z');
    await repo.insert(typed({ n: 1.5, count: 3, when, flag: true, meta: { a: [1] }, note: 'x' }));
    expect(db.dataCalls()[0]?.args[1]).toEqual([
      { $set: { n: 1.5, count: 3, when, flag: true, meta: { $literal: { a: [1] } }, note: 'x' } },
    ]);
  });
});

describe('keys: a key argument is checked like the key member', () => {
  test('a number for a string key is VALUE_INVALID on every key path, nothing sent', async () => {
    const { db, ctx, typed: repo } = await open();
    const expected = { code: 'VALUE_INVALID', entity: 'Typed', member: 'id' };
    await expect(repo.get(5 as never)).rejects.toMatchObject(expected);
    await expect(repo.getMany(['a', 5] as never)).rejects.toMatchObject(expected);
    await expect(repo.exists(5 as never)).rejects.toMatchObject(expected);
    await expect(repo.delete(5 as never)).rejects.toMatchObject(expected);
    await expect(repo.ttl(5 as never)).rejects.toMatchObject(expected);
    await expect(
      ctx
        .unitOfWork()
        .delete(Typed, 5 as never)
        .commit(),
    ).rejects.toMatchObject(expected);
    expect(db.dataCalls()).toEqual([]);
  });

  test('no key at all (undefined, null) is KEY_INCOMPLETE', async () => {
    const { db, typed: repo } = await open();
    await expect(repo.get(undefined as never)).rejects.toMatchObject({ code: 'KEY_INCOMPLETE', member: 'id' });
    await expect(repo.get(null as never)).rejects.toMatchObject({ code: 'KEY_INCOMPLETE', member: 'id' });
    await expect(repo.getMany([null] as never)).rejects.toMatchObject({ code: 'KEY_INCOMPLETE' });
    expect(db.dataCalls()).toEqual([]);
  });
});

describe('filters: find/count values are checked and sent as values', () => {
  test('a value of the wrong type, or null for a non-nullable member, is VALUE_INVALID', async () => {
    const { db, typed: repo } = await open();
    await expect(repo.find({ n: 'abc' } as never)).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'n' });
    await expect(repo.count({ id: 5 } as never)).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'id' });
    await expect(repo.find({ n: null } as never)).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'n' });
    expect(db.dataCalls()).toEqual([]);
  });

  test('null on a nullable member matches null; an object is compared with $eq, never read as operators', async () => {
    const { db, typed: repo } = await open();
    await repo.find({ note: null });
    await repo.find({ meta: { $ne: null } });
    const [nullable, object] = db.dataCalls();
    expect(nullable?.args[0]).toEqual({ note: null });
    expect(object?.args[0]).toEqual({ meta: { $eq: { $ne: null } } });
  });
});

describe('@CreatedAt on an upsert keeps the stored value, even when the instance holds one', () => {
  test('upsert: $ifNull of the stored createdAt, else the given one; insert: the given one', async () => {
    const db = new RecordingDb(() => UPDATED);
    const ctx = await connect(model, new MongoStore({ db }));
    const at = new Date('2026-01-02T03:04:05Z');
    const session = Object.assign(new Session(), { id: 's1', payload: 'p', createdAt: at });
    await ctx.repository(Session).upsert(session);
    await ctx.repository(Session).insert(session);
    const [upsert, insert] = db.dataCalls();
    expect(upsert?.args[1]).toEqual([{ $set: { createdAt: { $ifNull: ['$createdAt', at] }, payload: 'p' } }]);
    expect(insert?.args[1]).toEqual([{ $set: { createdAt: at, payload: 'p' } }]);
  });
});
