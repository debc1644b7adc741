/**
 * A unit of work commits once, and a failed commit says how much of it stays written: an ordered
 * bulkWrite is not atomic, the operations before the failing one are kept by the server.
 */
import model, { Cart, Session } from '../../examples/models';
import { connect, LifespanError, StoreError } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import { bulkWriteError, RecordingDb, serverError, type Responder } from './recording-db';

async function open(respond: Responder) {
  const db = new RecordingDb(respond);
  return { db, ctx: await connect(model, new MongoStore({ db })) };
}

const session = (id: string) => Object.assign(new Session(), { id, payload: 'p' });
const cart = (id: string) => Object.assign(new Cart(), { id, items: [] });
const bulkWrites = (db: RecordingDb) => db.dataCalls().filter((c) => c.op === 'bulkWrite');

describe('a unit of work commits once', () => {
  test('after a successful commit, commit/insert/upsert/delete throw UOW_ALREADY_COMMITTED; nothing is re-sent', async () => {
    const { db, ctx } = await open(() => ({}));
    const uow = ctx.unitOfWork().insert(session('s1'));
    await uow.commit();
    const again = uow.commit();
    await expect(again).rejects.toBeInstanceOf(LifespanError);
    await expect(again).rejects.toMatchObject({
      code: 'UOW_ALREADY_COMMITTED',
      hint: expect.stringContaining('new unitOfWork()'),
    });
    expect(() => uow.insert(session('s2'))).toThrow(expect.objectContaining({ code: 'UOW_ALREADY_COMMITTED' }));
    expect(() => uow.upsert(session('s2'))).toThrow(expect.objectContaining({ code: 'UOW_ALREADY_COMMITTED' }));
    expect(() => uow.delete(Session, 's2')).toThrow(expect.objectContaining({ code: 'UOW_ALREADY_COMMITTED' }));
    expect(bulkWrites(db)).toHaveLength(1);
  });

  test('a retried commit after a server failure does not resolve having written nothing', async () => {
    let fail = true;
    const { db, ctx } = await open(() => {
      if (fail) throw serverError(91, 'ShutdownInProgress', 'The server is in quiesce mode and will shut down');
      return {};
    });
    const uow = ctx.unitOfWork().insert(session('s1')).upsert(session('s2'));
    await expect(uow.commit()).rejects.toMatchObject({ code: 'STORE_OPERATION_FAILED' });
    fail = false;
    await expect(uow.commit()).rejects.toMatchObject({ code: 'UOW_ALREADY_COMMITTED' });
    expect(bulkWrites(db)).toHaveLength(1);
  });

  test('a commit refused before sending (a bad value) also spends the unit of work', async () => {
    const { db, ctx } = await open(() => ({}));
    const uow = ctx.unitOfWork().insert(Object.assign(new Session(), { id: 's1', payload: 7 }));
    await expect(uow.commit()).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'payload' });
    await expect(uow.commit()).rejects.toMatchObject({ code: 'UOW_ALREADY_COMMITTED' });
    expect(db.dataCalls()).toEqual([]);
  });
});

describe('a failed commit reports what stays written', () => {
  test('a duplicate at operation 2 of the second batch: the 3 operations before it stay written, 1 not sent', async () => {
    const { ctx } = await open((call) => {
      if (call.collection === 'sessions') {
        throw bulkWriteError(1, 11000, 'E11000 duplicate key error collection: app.sessions index: _id_', {
          upsertedCount: 1,
        });
      }
      return {};
    });
    const failure = ctx
      .unitOfWork()
      .upsert(cart('c1'))
      .delete(Cart, 'c2')
      .insert(session('s1'))
      .insert(session('s2'))
      .insert(session('s3'))
      .commit();
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    await expect(failure).rejects.toMatchObject({ name: 'MongoCommitError' });
    await expect(failure).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_KEY',
      entity: 'Session',
      committed: 3,
      total: 5,
    });
    await expect(failure).rejects.toThrow(
      `unit of work insert into 'sessions': a live record with this key (id) already exists; stopped at operation 4 (insert of Session); ` +
        '3 of the 5 operations were written before the failure and stay written; the failing one and the 1 after it were not written ' +
        '(server counts for this batch: upsertedCount 1, matchedCount 0, modifiedCount 0, deletedCount 0)',
    );
  });

  test('a failure with no write error index (network, timeout): the share of that batch is unknown', async () => {
    const { ctx } = await open((call) => {
      if (call.collection === 'sessions') throw serverError(50, 'MaxTimeMSExpired', 'operation exceeded time limit');
      return {};
    });
    const failure = ctx.unitOfWork().upsert(cart('c1')).insert(session('s1')).insert(session('s2')).commit();
    await expect(failure).rejects.toMatchObject({ code: 'STORE_OPERATION_FAILED', committed: null, total: 3 });
    await expect(failure).rejects.toThrow(
      "operation exceeded time limit; 1 of the 3 operations were written before this batch and stay written; of its 2 on 'sessions' an unknown number were written",
    );
  });

  test('a duplicate in the first operation: nothing written', async () => {
    const { ctx } = await open(() => {
      throw bulkWriteError(0, 11000, 'E11000');
    });
    await expect(ctx.unitOfWork().insert(session('s1')).insert(session('s2')).commit()).rejects.toMatchObject({
      code: 'STORE_DUPLICATE_KEY',
      committed: 0,
      total: 2,
    });
  });
});
