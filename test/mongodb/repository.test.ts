import { Binary, MongoBulkWriteError } from 'mongodb';
import model, { CacheEntry, Cart, Reading, Session, Visit } from '../../examples/models';
import { connect, StoreError, UnsupportedTtlError } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import { RecordingDb, serverError, type Call, type Responder } from './recording-db';

/** A server's 11000 on _id: the message names the index (what tells it from another unique index). */
const ID_DUPLICATE = 'E11000 duplicate key error collection: app.sessions index: _id_ dup key: { _id: "s1" }';

const NOW_PLUS = (seconds: number) => ({ $add: ['$$NOW', seconds * 1000] });
const ONLY_ID = { $eq: [{ $size: { $objectToArray: '$$ROOT' } }, 1] };
const LIVE_SESSION = {
  $cond: [{ $eq: [{ $type: '$createdAt' }, 'date'] }, { $gt: [{ $add: ['$createdAt', 3_600_000] }, '$$NOW'] }, true],
};
const LIVE_CART = { $cond: [{ $eq: [{ $type: '$expiresAt' }, 'date'] }, { $gt: ['$expiresAt', '$$NOW'] }, true] };
const UPDATED = { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };

async function open(respond: Responder = () => UPDATED, hideExpired = false) {
  const db = new RecordingDb(respond);
  const ctx = await connect(model, new MongoStore({ db, hideExpired }));
  return { db, ctx };
}

const session = (fields: Partial<Session> = {}) => Object.assign(new Session(), { id: 's1', payload: 'p' }, fields);
const cart = (fields: Partial<Cart> = {}) => Object.assign(new Cart(), { id: 'c1', items: ['apple'] }, fields);
const only = (db: RecordingDb): Call => {
  const calls = db.dataCalls();
  expect(calls).toHaveLength(1);
  return calls[0] as Call;
};

describe('writes: one updateOne with an update pipeline, server clock via $$NOW', () => {
  test('insert: a never-matching guard in the filter, createdAt from $$NOW, values as constants', async () => {
    const { db, ctx } = await open();
    await ctx.repository(Session).insert(session({ payload: '$looksLikeAPath' }));
    expect(only(db)).toEqual({
      op: 'updateOne',
      collection: 'sessions',
      args: [
        { _id: 's1', _lifespanInsertGuard: { $exists: true } },
        [{ $set: { createdAt: '$$NOW', payload: { $literal: '$looksLikeAPath' } } }],
        { upsert: true },
      ],
    });
  });

  test('insert with createdAt given keeps it; upsert keeps a stored createdAt', async () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const { db, ctx } = await open();
    await ctx.repository(Session).insert(session({ createdAt: at }));
    await ctx.repository(Session).upsert(session());
    const [insert, upsert] = db.dataCalls();
    expect(insert?.args[1]).toEqual([{ $set: { createdAt: at, payload: 'p' } }]);
    expect(upsert?.args).toEqual([
      { _id: 's1' },
      [{ $set: { createdAt: { $ifNull: ['$createdAt', '$$NOW'] }, payload: 'p' } }],
      { upsert: true },
    ]);
  });

  test('with hideExpired, an upsert over a due-but-undeleted document starts it afresh', async () => {
    const { db, ctx } = await open(() => UPDATED, true);
    await ctx.repository(Session).upsert(session());
    const isNew = { $or: [ONLY_ID, { $not: [LIVE_SESSION] }] };
    expect(only(db).args[1]).toEqual([
      { $set: { createdAt: { $cond: [isNew, '$$NOW', { $ifNull: ['$createdAt', '$$NOW'] }] }, payload: 'p' } },
    ]);
  });

  test('DuplicateKey (11000) on insert is STORE_DUPLICATE_KEY', async () => {
    const { ctx } = await open(() => {
      throw serverError(11000, 'DuplicateKey', 'E11000 duplicate key error collection: app.sessions index: _id_');
    });
    const failure = ctx.repository(Session).insert(session());
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    await expect(failure).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_KEY',
      hint: 'use upsert() to overwrite it, or delete() it first',
    });
  });

  test('DuplicateKey (11000) on another unique index names that constraint, not the key', async () => {
    const { ctx } = await open(() => {
      const message = 'E11000 duplicate key error collection: app.sessions index: payload_1 dup key: { payload: "p" }';
      throw Object.assign(serverError(11000, 'DuplicateKey', message), { keyPattern: { payload: 1 } });
    });
    await expect(ctx.repository(Session).insert(session())).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_KEY',
      detail: "a unique constraint of 'sessions' refused the write (another record holds a value it must not share)",
    });
  });

  test('with hideExpired, a due document blocking an insert is deleted and the insert retried once', async () => {
    let attempts = 0;
    const { db, ctx } = await open((call) => {
      if (call.op === 'deleteOne') return { deletedCount: 1 };
      if (attempts++ === 0) throw serverError(11000, 'DuplicateKey', ID_DUPLICATE);
      return UPDATED;
    }, true);
    await ctx.repository(Session).insert(session());
    expect(db.dataCalls().map((c) => c.op)).toEqual(['updateOne', 'deleteOne', 'updateOne']);
    expect(db.dataCalls()[1]?.args).toEqual([{ _id: 's1', $expr: { $not: [LIVE_SESSION] } }]);
  });

  test('with hideExpired, a live duplicate is still a duplicate', async () => {
    const { ctx } = await open((call) => {
      if (call.op === 'deleteOne') return { deletedCount: 0 };
      throw serverError(11000, 'DuplicateKey', ID_DUPLICATE);
    }, true);
    await expect(ctx.repository(Session).insert(session())).rejects.toMatchObject({ code: 'STORE_DUPLICATE_KEY' });
  });

  test('other server failures are StoreErrors that keep the driver error as cause', async () => {
    const cause = serverError(13, 'Unauthorized', 'not authorized');
    const { ctx } = await open(() => {
      throw cause;
    });
    await expect(ctx.repository(Session).upsert(session())).rejects.toMatchObject({
      code: 'STORE_OPERATION_FAILED',
      cause,
    });
  });

  test('a per-write TTL on an entity that counts from a date member is refused before anything is sent', async () => {
    const { db, ctx } = await open();
    await expect(ctx.repository(Session).insert(session(), { ttl: '1h' })).rejects.toMatchObject({
      code: 'TTL_PER_WRITE_NOT_DECLARED',
    });
    await expect(ctx.repository(Session).insert(session(), { ttl: '1h' })).rejects.toBeInstanceOf(UnsupportedTtlError);
    expect(db.dataCalls()).toEqual([]);
  });

  test('an explicit date member must hold a real Date', async () => {
    const { db, ctx } = await open();
    const visits = ctx.repository(Visit);
    const visit = (lastSeenAt: unknown) => Object.assign(new Visit(), { id: 'v', page: '/', lastSeenAt });
    await expect(visits.insert(visit(new Date(0)))).rejects.toMatchObject({ code: 'MONGO_TTL_VALUE_PLACEHOLDER' });
    await expect(visits.insert(visit('2026-01-01'))).rejects.toMatchObject({
      code: 'VALUE_INVALID',
      member: 'lastSeenAt',
      message: expect.stringContaining('never expires a document whose lastSeenAt is not a date'),
    });
    await expect(visits.insert(visit(new Date('nope')))).rejects.toMatchObject({
      code: 'VALUE_INVALID',
      message: expect.stringContaining('value Invalid Date is not a valid Date'),
    });
    await expect(visits.insert(visit(null))).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'lastSeenAt' });
    expect(db.dataCalls()).toEqual([]);
    await visits.insert(visit(new Date('2026-01-01T00:00:00Z')));
    expect(only(db).args[1]).toEqual([{ $set: { page: '/', lastSeenAt: new Date('2026-01-01T00:00:00Z') } }]);
  });
});

describe('per-write TTL on the expiry-date field (Cart: 7d default from updatedAt, perWrite)', () => {
  const write = async (ttl: unknown, mode: 'insert' | 'upsert' = 'upsert') => {
    const { db, ctx } = await open();
    const carts = ctx.repository(Cart);
    await (mode === 'insert'
      ? carts.insert(cart(), { ttl: ttl as never })
      : carts.upsert(cart(), { ttl: ttl as never }));
    return only(db).args[1];
  };
  const base = { items: { $literal: ['apple'] }, updatedAt: '$$NOW' };

  test('no TTL (default): expiresAt = updatedAt + 7d, both from the same $$NOW', async () => {
    expect(await write(undefined, 'insert')).toEqual([{ $set: { ...base, expiresAt: NOW_PLUS(604800) } }]);
    expect(await write('default')).toEqual([{ $set: { ...base, expiresAt: NOW_PLUS(604800) } }]);
  });

  test('a duration: $$NOW + n', async () => {
    expect(await write('90m')).toEqual([{ $set: { ...base, expiresAt: NOW_PLUS(5400) } }]);
  });

  test("'never': $unset the field (insert simply does not set it)", async () => {
    expect(await write('never')).toEqual([{ $set: base }, { $unset: ['expiresAt'] }]);
    expect(await write('never', 'insert')).toEqual([{ $set: base }]);
  });

  test("'keep': the stored expiresAt stays; a new document gets the default", async () => {
    expect(await write('keep')).toEqual([
      { $set: { ...base, expiresAt: { $cond: [ONLY_ID, NOW_PLUS(604800), '$expiresAt'] } } },
    ]);
    expect(await write('keep', 'insert')).toEqual([{ $set: { ...base, expiresAt: NOW_PLUS(604800) } }]);
  });

  test('{ extend }: max-join of the stored expiry and $$NOW + n; never stays never; new gets $$NOW + n', async () => {
    const later = {
      $cond: [{ $eq: [{ $type: '$expiresAt' }, 'date'] }, { $max: ['$expiresAt', NOW_PLUS(3600)] }, '$expiresAt'],
    };
    expect(await write({ extend: '1h' })).toEqual([
      { $set: { ...base, expiresAt: { $cond: [ONLY_ID, NOW_PLUS(3600), later] } } },
    ]);
    expect(await write({ extend: '1h' }, 'insert')).toEqual([{ $set: { ...base, expiresAt: NOW_PLUS(3600) } }]);
  });

  test('bad per-write values are TtlErrors naming the value', async () => {
    await expect(write(0)).rejects.toMatchObject({ code: 'TTL_NOT_POSITIVE' });
    await expect(write({ extend: 'soon' })).rejects.toMatchObject({ code: 'TTL_UNKNOWN_FORMAT' });
  });

  test('perWrite without a default (CacheEntry): no TTL means no expiresAt, and an upsert removes one', async () => {
    const { db, ctx } = await open();
    const entry = Object.assign(new CacheEntry(), { key: 'k', value: 'v' });
    await ctx.repository(CacheEntry).insert(entry);
    await ctx.repository(CacheEntry).upsert(entry);
    await ctx.repository(CacheEntry).upsert(entry, { ttl: 'keep' });
    const [insert, upsert, keep] = db.dataCalls();
    expect(insert?.args[1]).toEqual([{ $set: { value: 'v' } }]);
    expect(upsert?.args[1]).toEqual([{ $set: { value: 'v' } }, { $unset: ['expiresAt'] }]);
    expect(keep?.args[1]).toEqual([
      { $set: { value: 'v', expiresAt: { $cond: [ONLY_ID, '$$REMOVE', '$expiresAt'] } } },
    ]);
  });
});

describe('reads', () => {
  test('get: by _id, int64 as bigint; without hideExpired no expiry predicate', async () => {
    const stored = { _id: 's1', createdAt: new Date('2026-01-01T00:00:00Z'), payload: 'p', extra: 1 };
    const { db, ctx } = await open(() => [stored]);
    const got = await ctx.repository(Session).get('s1');
    expect(got).toBeInstanceOf(Session);
    expect(got).toEqual(
      Object.assign(Object.create(Session.prototype), { id: 's1', createdAt: stored.createdAt, payload: 'p' }),
    );
    expect(only(db)).toEqual({
      op: 'find',
      collection: 'sessions',
      args: [{ _id: 's1' }, { useBigInt64: true, limit: 1 }],
    });
  });

  test('hideExpired: every read path carries the expiry predicate ($expr on the server clock)', async () => {
    const { db, ctx } = await open(
      (call) =>
        call.op === 'find' ? [] : call.op === 'aggregate' ? [] : call.op === 'deleteOne' ? { deletedCount: 0 } : 0,
      true,
    );
    const sessions = ctx.repository(Session);
    await sessions.get('s1');
    await sessions.getMany(['s1', 's2']);
    await sessions.find({ payload: 'p' }, { limit: 5 });
    await sessions.exists('s1');
    await sessions.count();
    await sessions.delete('s1');
    await sessions.ttl('s1');
    const calls = db.dataCalls();
    expect(calls.map((c) => c.op)).toEqual([
      'find',
      'find',
      'find',
      'countDocuments',
      'countDocuments',
      'deleteOne',
      'aggregate',
    ]);
    expect(calls[0]?.args[0]).toEqual({ _id: 's1', $expr: LIVE_SESSION });
    expect(calls[1]?.args[0]).toEqual({ _id: { $in: ['s1', 's2'] }, $expr: LIVE_SESSION });
    expect(calls[2]?.args).toEqual([
      { payload: 'p', $expr: LIVE_SESSION },
      { useBigInt64: true, limit: 5 },
    ]);
    expect(calls[3]?.args).toEqual([{ _id: 's1', $expr: LIVE_SESSION }, { limit: 1 }]);
    expect(calls[4]?.args).toEqual([{ $expr: LIVE_SESSION }, {}]);
    expect(calls[5]?.args).toEqual([{ _id: 's1', $expr: LIVE_SESSION }]);
    expect((calls[6]?.args[0] as unknown[])[0]).toEqual({ $match: { _id: 's1', $expr: LIVE_SESSION } });
  });

  test('per-write entities filter on the expiry-date field', async () => {
    const { db, ctx } = await open(() => [], true);
    await ctx.repository(Cart).get('c1');
    expect(only(db).args[0]).toEqual({ _id: 'c1', $expr: LIVE_CART });
  });

  test('getMany returns found documents in the order asked', async () => {
    const { ctx } = await open(() => [
      { _id: 'b', createdAt: new Date(1), payload: 'B' },
      { _id: 'a', createdAt: new Date(1), payload: 'A' },
    ]);
    const found = await ctx.repository(Session).getMany(['a', 'missing', 'b']);
    expect(found.map((s) => s.payload)).toEqual(['A', 'B']);
  });

  test('a compound key is an _id document in key order; find on a key member uses _id.<field>', async () => {
    const takenAt = new Date('2026-01-01T00:00:00Z');
    const { db, ctx } = await open(() => [{ _id: { sensorId: 'x', takenAt }, value: 2, createdAt: takenAt }]);
    const readings = ctx.repository(Reading);
    const [found] = await readings.find({ sensorId: 'x' });
    await readings.get({ sensorId: 'x', takenAt });
    expect(found).toMatchObject({ sensorId: 'x', takenAt, value: 2 });
    const [find, get] = db.dataCalls();
    expect(find?.args[0]).toEqual({ '_id.sensorId': 'x' });
    expect(get?.args[0]).toEqual({ _id: { sensorId: 'x', takenAt } });
    await expect(readings.get('x')).rejects.toMatchObject({ code: 'KEY_INCOMPLETE' });
  });

  test('stored BSON comes back as the member types promise (bigint, Buffer)', async () => {
    const { Blob } = await import('./typed-entity');
    const { ModelBuilder } = await import('../../src');
    const db = new RecordingDb(() => [
      { _id: 'b', size: 5, big: 9007199254740993n, bytes: new Binary(Buffer.from('hi')) },
    ]);
    const ctx = await connect(new ModelBuilder().entity(Blob).build(), new MongoStore({ db }));
    const [blob] = await ctx.repository(Blob).find();
    expect(blob?.big).toBe(9007199254740993n);
    expect(Buffer.isBuffer(blob?.bytes)).toBe(true);
    expect(blob?.bytes.toString()).toBe('hi');
  });
});

describe('ttl(key) and setTtl(key, ttl)', () => {
  test('ttl: remaining whole seconds computed by the server; null never; undefined missing', async () => {
    const replies: unknown[] = [[{ remainingMs: 1500 }], [{ remainingMs: null }], [], [{ remainingMs: -20 }]];
    const { db, ctx } = await open(() => replies.shift());
    const sessions = ctx.repository(Session);
    expect(await sessions.ttl('s1')).toBe(2);
    expect(await sessions.ttl('s1')).toBeNull();
    expect(await sessions.ttl('s1')).toBeUndefined();
    expect(await sessions.ttl('s1')).toBe(0);
    expect(db.dataCalls()[0]?.args).toEqual([
      [
        { $match: { _id: 's1' } },
        { $limit: 1 },
        {
          $project: {
            _id: 0,
            remainingMs: {
              $cond: [
                { $eq: [{ $type: '$createdAt' }, 'date'] },
                { $subtract: [{ $add: ['$createdAt', 3_600_000] }, '$$NOW'] },
                null,
              ],
            },
          },
        },
      ],
      { useBigInt64: true },
    ]);
  });

  test('ttl of an expiry-field entity reads the field; of a TTL-less entity is null', async () => {
    const { db, ctx } = await open(() => [{ remainingMs: null }]);
    await ctx.repository(Cart).ttl('c1');
    const { AuditLog } = await import('../../examples/models');
    expect(await ctx.repository(AuditLog).ttl('a')).toBeNull();
    const [cartCall] = db.dataCalls();
    expect(
      ((cartCall?.args[0] as Array<Record<string, unknown>>)[2]?.['$project'] as Record<string, unknown>)[
        'remainingMs'
      ],
    ).toEqual({
      $cond: [{ $eq: [{ $type: '$expiresAt' }, 'date'] }, { $subtract: ['$expiresAt', '$$NOW'] }, null],
    });
  });

  test('setTtl on a date-member entity: UnsupportedTtlError explaining the collection-wide TTL', async () => {
    const { db, ctx } = await open();
    const failure = ctx.repository(Session).setTtl('s1', '1h');
    await expect(failure).rejects.toBeInstanceOf(UnsupportedTtlError);
    await expect(failure).rejects.toThrow(
      /collection-wide TTL index counts from createdAt \(expireAfterSeconds: 3600\)/,
    );
    expect(db.dataCalls()).toEqual([]);
  });

  test('setTtl on the expiry-date field: $set / $unset / max-join on the live document only', async () => {
    const { db, ctx } = await open((call) =>
      call.op === 'countDocuments' ? 1 : { matchedCount: 1, modifiedCount: 1, upsertedCount: 0 },
    );
    const carts = ctx.repository(Cart);
    expect(await carts.setTtl('c1', '2h')).toBe(true);
    await carts.setTtl('c1', 'never');
    await carts.setTtl('c1', 'default');
    await carts.setTtl('c1', { extend: 60 });
    expect(await carts.setTtl('c1', 'keep')).toBe(true);
    const calls = db.dataCalls();
    expect(calls[0]?.args).toEqual([{ _id: 'c1' }, [{ $set: { expiresAt: NOW_PLUS(7200) } }], { upsert: false }]);
    expect(calls[1]?.args[1]).toEqual([{ $unset: ['expiresAt'] }]);
    expect(calls[2]?.args[1]).toEqual([
      {
        $set: {
          expiresAt: {
            $cond: [{ $eq: [{ $type: '$updatedAt' }, 'date'] }, { $add: ['$updatedAt', 604_800_000] }, '$$REMOVE'],
          },
        },
      },
    ]);
    expect(calls[3]?.args[1]).toEqual([
      {
        $set: {
          expiresAt: {
            $cond: [{ $eq: [{ $type: '$expiresAt' }, 'date'] }, { $max: ['$expiresAt', NOW_PLUS(60)] }, '$expiresAt'],
          },
        },
      },
    ]);
    expect(calls[4]).toMatchObject({ op: 'countDocuments', args: [{ _id: 'c1' }, { limit: 1 }] });
  });

  test('setTtl on a missing key: false, nothing written', async () => {
    const { ctx } = await open(() => ({ matchedCount: 0, modifiedCount: 0, upsertedCount: 0 }));
    expect(await ctx.repository(Cart).setTtl('nope', '1h')).toBe(false);
  });
});

describe('unit of work', () => {
  test('ordered bulkWrites per run of one collection; commit ttl fills writes without their own', async () => {
    const { db, ctx } = await open(() => ({}));
    await ctx
      .unitOfWork()
      .upsert(cart(), { ttl: '1h' })
      .insert(cart({ id: 'c2' }))
      .insert(session(), { ttl: 'default' })
      .delete(Cart, 'c3')
      .commit({ ttl: 'never' });
    const calls = db.dataCalls();
    expect(calls.map((c) => [c.op, c.collection])).toEqual([
      ['bulkWrite', 'carts'],
      ['bulkWrite', 'sessions'],
      ['bulkWrite', 'carts'],
    ]);
    expect(calls[0]?.args).toEqual([
      [
        {
          updateOne: {
            filter: { _id: 'c1' },
            update: [{ $set: { items: { $literal: ['apple'] }, updatedAt: '$$NOW', expiresAt: NOW_PLUS(3600) } }],
            upsert: true,
          },
        },
        {
          updateOne: {
            filter: { _id: 'c2', _lifespanInsertGuard: { $exists: true } },
            update: [{ $set: { items: { $literal: ['apple'] }, updatedAt: '$$NOW' } }],
            upsert: true,
          },
        },
      ],
      { ordered: true },
    ]);
    expect(calls[2]?.args[0]).toEqual([{ deleteOne: { filter: { _id: 'c3' } } }]);
  });

  test('every write is checked before anything is sent', async () => {
    const { db, ctx } = await open(() => ({}));
    const uow = ctx.unitOfWork().upsert(cart()).insert(session(), { ttl: '1h' });
    await expect(uow.commit()).rejects.toMatchObject({ code: 'TTL_PER_WRITE_NOT_DECLARED' });
    expect(db.dataCalls()).toEqual([]);
  });

  test("a bulk write's duplicate is the key only when its write error's keyPattern is { _id: 1 }", async () => {
    const failWith = (keyPattern: object) => () => {
      const err = { index: 0, code: 11000, errmsg: 'E11000 duplicate key error', keyPattern };
      // The driver's WriteError (not exported) keeps the server's document as `err`; code and index are getters over it.
      const writeError = { err, code: err.code, index: err.index };
      throw new MongoBulkWriteError(
        { message: 'E11000', code: 11000, writeErrors: [writeError] } as never,
        {} as never,
      );
    };
    const onId = await open(failWith({ _id: 1 }));
    await expect(onId.ctx.unitOfWork().insert(session()).commit()).rejects.toMatchObject({
      detail: expect.stringMatching(
        /^unit of work insert into 'sessions': a live record with this key \(id\) already exists; /,
      ),
    });
    const onPayload = await open(failWith({ payload: 1 }));
    await expect(onPayload.ctx.unitOfWork().insert(session()).commit()).rejects.toMatchObject({
      detail: expect.stringMatching(/^unit of work: a unique constraint of 'sessions' refused the write/),
    });
  });

  test('a duplicate key inside a bulk write is STORE_DUPLICATE_KEY', async () => {
    const { ctx } = await open(() => {
      throw Object.assign(new Error('E11000'), { writeErrors: [{ code: 11000, index: 0 }] });
    });
    await expect(ctx.unitOfWork().insert(session()).commit()).rejects.toMatchObject({ code: 'STORE_DUPLICATE_KEY' });
  });

  test('with hideExpired, due documents that would block the inserts are removed first', async () => {
    const { db, ctx } = await open((call) => (call.op === 'deleteMany' ? { deletedCount: 0 } : {}), true);
    await ctx
      .unitOfWork()
      .insert(session())
      .insert(session({ id: 's2' }))
      .commit();
    expect(db.dataCalls()[0]).toEqual({
      op: 'deleteMany',
      collection: 'sessions',
      args: [{ _id: { $in: ['s1', 's2'] }, $expr: { $not: [LIVE_SESSION] } }],
    });
  });
});
