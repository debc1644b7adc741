/** Repositories and units of work on every engine: values round-trip, CRUD, filters, transactions. */
import type { Knex } from 'knex';
import { LifespanError, ModelError, StoreError, type StoreContext } from '../../src';
import type { RelationalRepository } from '../../src/providers/relational';
import { connectRelational, describeEngines, prefixFor, useEmulatedStore } from './support/engines';
import { AuditLog, Reading, Sample, Session, make, testModel } from './support/models';

describeEngines('relational repositories', (engine) => {
  const model = testModel(prefixFor('crud'));
  let knex: Knex;
  let db: StoreContext;

  useEmulatedStore(engine, model, (suite) => ({ knex, db } = suite));

  test('every value kind round-trips, null included', async () => {
    const repo = db.repository(Sample);
    const full = make(Sample, {
      id: 'full',
      text: 'héllo "quoted" \'single\' ; DROP TABLE x; --',
      real: -12.375,
      whole: Number.MAX_SAFE_INTEGER,
      big: 2n ** 63n - 1n,
      flag: true,
      at: new Date(Date.UTC(2024, 1, 29, 23, 59, 58, 123)),
      doc: { nested: { list: [1, 'two', null, true] }, n: 1.5 },
      bytes: Buffer.from([0, 1, 2, 254, 255]),
      ref: '7d444840-9dc0-11d1-b245-5ffdce74fad2',
      note: 'a note',
      extra: [1, 2, 3],
    });
    const empty = make(Sample, { id: 'empty', big: -(2n ** 63n), whole: -5, doc: [], note: null, extra: null });
    await repo.insert(full);
    await repo.insert(empty);
    const back = await repo.get('full');
    expect(back).toBeInstanceOf(Sample);
    expect(back).toEqual(full);
    expect(await repo.get('empty')).toEqual(empty);
    expect((await repo.get('empty'))?.note).toBeNull();
  });

  test('values a column cannot hold exactly are refused with the member named', async () => {
    const repo = db.repository(Sample);
    const cases: [Partial<Sample>, string][] = [
      [{ real: Number.NaN }, 'real'],
      [{ whole: 1.5 }, 'whole'],
      [{ big: 2n ** 64n }, 'big'],
      [{ at: new Date('nope') }, 'at'],
      [{ text: 5 as unknown as string }, 'text'],
      [{ flag: 'yes' as unknown as boolean }, 'flag'],
      [{ text: null as unknown as string }, 'text'],
    ];
    const before = await repo.count();
    const ids = cases.map(([, member]) => `bad-${member}`);
    for (const [values, member] of cases) {
      const error = await repo.insert(make(Sample, { id: `bad-${member}`, ...values })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LifespanError);
      expect(error).toMatchObject({ code: 'VALUE_INVALID', member, entity: 'Sample' });
    }
    // Nothing of a refused write reached the table: no row by key, none counted, none in a scan.
    expect(await repo.getMany(ids)).toEqual([]);
    expect(await repo.count()).toBe(before);
    expect((await repo.find()).filter((s) => ids.includes(s.id))).toEqual([]);
    const stored = await knex(`${prefixFor('crud')}_values`).whereIn('id', ids);
    expect(stored).toEqual([]);
  });

  test('insert refuses a live duplicate; upsert overwrites and keeps createdAt', async () => {
    const repo = db.repository(Session);
    const first = make(Session, { id: 'dup', payload: 'one' });
    await repo.insert(first);
    const created = first.createdAt;
    expect(created.getTime()).toBeGreaterThan(0);
    const error = await repo.insert(make(Session, { id: 'dup', payload: 'two' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'STORE_DUPLICATE_KEY', entity: 'Session' });
    expect((await repo.get('dup'))?.payload).toBe('one');
    await new Promise((r) => setTimeout(r, 5));
    await repo.upsert(make(Session, { id: 'dup', payload: 'three', createdAt: new Date() }));
    const back = await repo.get('dup');
    expect(back?.payload).toBe('three');
    expect(back?.createdAt.getTime()).toBe(created.getTime());
  });

  test('an upsert keeps the stored createdAt on a table without expires_at too', async () => {
    const repo = db.repository(AuditLog);
    await repo.insert(make(AuditLog, { id: 'kept-created', message: 'one' }));
    const created = (await repo.get('kept-created'))?.createdAt.getTime();
    expect(created).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 5));
    await repo.upsert(make(AuditLog, { id: 'kept-created', message: 'two', createdAt: new Date() }));
    await repo.upsert(make(AuditLog, { id: 'kept-created', message: 'three' }));
    const back = await repo.get('kept-created');
    expect(back?.message).toBe('three');
    expect(back?.createdAt.getTime()).toBe(created);
  });

  test('find, count, exists, getMany, delete and deleteWhere', async () => {
    const repo = db.repository(Reading);
    const t = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s));
    for (const [sensorId, s, value] of [
      ['a', 1, 10],
      ['a', 2, 20],
      ['a', 3, 20],
      ['b', 1, 20],
    ] as const) {
      await repo.insert(make(Reading, { sensorId, takenAt: t(s), value }));
    }
    // clustering order is descending: newest first within a partition
    expect((await repo.find({ sensorId: 'a' })).map((r) => r.takenAt.getTime())).toEqual(
      [t(3), t(2), t(1)].map(Number),
    );
    expect(await repo.find({ sensorId: 'a', value: 20 }, { limit: 1 })).toHaveLength(1);
    expect(await repo.count({ value: 20 })).toBe(3);
    expect(await repo.count()).toBe(4);
    expect(await repo.exists({ sensorId: 'b', takenAt: t(1) })).toBe(true);
    expect(await repo.exists({ sensorId: 'b', takenAt: t(2) })).toBe(false);
    const many = await repo.getMany([
      { sensorId: 'b', takenAt: t(1) },
      { sensorId: 'x', takenAt: t(1) },
      { sensorId: 'a', takenAt: t(2) },
    ]);
    expect(many.map((r) => `${r.sensorId}${r.takenAt.getUTCSeconds()}`)).toEqual(['b1', 'a2']);
    expect(await repo.delete({ sensorId: 'b', takenAt: t(1) })).toBe(true);
    expect(await repo.delete({ sensorId: 'b', takenAt: t(1) })).toBe(false);
    expect(await (repo as RelationalRepository<Reading>).deleteWhere({ sensorId: 'a' })).toBe(3);
    expect(await repo.count()).toBe(0);
  });

  test('getMany reads many keys in order, across statement buckets', async () => {
    const repo = db.repository(AuditLog);
    const ids = Array.from({ length: 300 }, (_, i) => `m${i}`);
    const uow = db.unitOfWork();
    for (const id of ids) uow.insert(make(AuditLog, { id, message: id }));
    await uow.commit();
    const wanted = [...ids].reverse().filter((_, i) => i % 3 === 0);
    const got = await repo.getMany([...wanted, 'missing']);
    expect(got.map((a) => a.id)).toEqual(wanted);
    expect(await repo.getMany([])).toEqual([]);
  });

  test('null filters and unknown members', async () => {
    const repo = db.repository(Sample);
    await repo.insert(make(Sample, { id: 'n1', note: null }));
    await repo.insert(make(Sample, { id: 'n2', note: 'x' }));
    expect((await repo.find({ note: null, id: 'n1' })).map((s) => s.id)).toEqual(['n1']);
    expect((await repo.find({ note: 'x' })).map((s) => s.id)).toEqual(['n2']);
    await expect(repo.find({ nope: 1 } as never)).rejects.toMatchObject({ code: 'UNKNOWN_MEMBER', member: 'nope' });
    await expect(repo.find({}, { limit: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });

  test('a unit of work commits in one transaction: one failure writes nothing', async () => {
    const sessions = db.repository(Session);
    await sessions.insert(make(Session, { id: 'uow-existing', payload: 'x' }));
    const failing = db
      .unitOfWork()
      .insert(make(Session, { id: 'uow-1', payload: 'a' }))
      .upsert(make(AuditLog, { id: 'uow-audit', message: 'm' }))
      .insert(make(Session, { id: 'uow-existing', payload: 'clash' }))
      .delete(Session, 'uow-existing');
    await expect(failing.commit()).rejects.toMatchObject({ code: 'STORE_DUPLICATE_KEY' });
    expect(await sessions.exists('uow-1')).toBe(false);
    expect(await db.repository(AuditLog).exists('uow-audit')).toBe(false);
    expect((await sessions.get('uow-existing'))?.payload).toBe('x');

    await db
      .unitOfWork()
      .insert(make(Session, { id: 'uow-1', payload: 'a' }))
      .delete(Session, 'uow-existing')
      .commit();
    expect(await sessions.exists('uow-1')).toBe(true);
    expect(await sessions.exists('uow-existing')).toBe(false);
  });

  test('a unit of work commits once: after a failed or a successful commit it takes nothing more', async () => {
    const sessions = db.repository(Session);
    await sessions.insert(make(Session, { id: 'once-existing', payload: 'x' }));
    const failed = db
      .unitOfWork()
      .insert(make(Session, { id: 'once-new', payload: 'a' }))
      .insert(make(Session, { id: 'once-existing', payload: 'clash' }));
    await expect(failed.commit()).rejects.toMatchObject({ code: 'STORE_DUPLICATE_KEY' });
    // a retry must not "succeed" having written nothing
    const retry = await failed.commit().catch((e: unknown) => e);
    expect(retry).toBeInstanceOf(LifespanError);
    expect(retry).toMatchObject({ code: 'UOW_ALREADY_COMMITTED', store: 'relational' });
    expect((retry as LifespanError).hint).toContain('unitOfWork()');
    expect(() => failed.insert(make(Session, { id: 'once-later', payload: 'b' }))).toThrow(
      expect.objectContaining({ code: 'UOW_ALREADY_COMMITTED' }),
    );
    expect(() => failed.upsert(make(Session, { id: 'once-later', payload: 'b' }))).toThrow(
      expect.objectContaining({ code: 'UOW_ALREADY_COMMITTED' }),
    );
    expect(() => failed.delete(Session, 'once-existing')).toThrow(
      expect.objectContaining({ code: 'UOW_ALREADY_COMMITTED' }),
    );
    expect(await sessions.exists('once-new')).toBe(false);
    expect(await sessions.exists('once-later')).toBe(false);

    const done = db.unitOfWork().insert(make(Session, { id: 'once-new', payload: 'a' }));
    await done.commit();
    await expect(done.commit()).rejects.toMatchObject({ code: 'UOW_ALREADY_COMMITTED' });
    expect(() => done.delete(Session, 'once-new')).toThrow(expect.objectContaining({ code: 'UOW_ALREADY_COMMITTED' }));
    expect(await sessions.exists('once-new')).toBe(true);

    // a value refused while encoding fails the commit too: the unit of work is spent
    const invalid = db.unitOfWork().insert(make(Sample, { id: 'once-bad', real: Number.NaN }));
    await expect(invalid.commit()).rejects.toMatchObject({ code: 'VALUE_INVALID' });
    await expect(invalid.commit()).rejects.toMatchObject({ code: 'UOW_ALREADY_COMMITTED' });
    // a bad options argument is refused before the commit starts
    const kept = db.unitOfWork().insert(make(AuditLog, { id: 'once-audit', message: 'm' }));
    await expect(kept.commit(null as never)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await kept.commit();
    expect(await db.repository(AuditLog).exists('once-audit')).toBe(true);
  });

  test('a class outside the model, a plain object or no object is refused at the call', async () => {
    class Stranger {
      id = '';
    }
    const code = (c: string) => expect.objectContaining({ code: c, store: 'relational' });
    expect(() => db.repository(Stranger)).toThrow(code('UNKNOWN_ENTITY'));
    expect(() => db.repository(undefined as never)).toThrow(code('UNKNOWN_ENTITY'));
    const uow = db.unitOfWork();
    expect(() => uow.insert(new Stranger())).toThrow(code('UNKNOWN_ENTITY'));
    expect(() => uow.upsert({ id: 'plain', payload: 'p' })).toThrow(code('UNKNOWN_ENTITY'));
    expect(() => uow.insert(Object.create(null) as object)).toThrow(code('UNKNOWN_ENTITY'));
    expect(() => uow.insert(null as never)).toThrow(code('BAD_ARGUMENT'));
    expect(() => uow.upsert(5 as never)).toThrow(code('BAD_ARGUMENT'));
    expect(() => uow.delete(Stranger, 'x')).toThrow(code('UNKNOWN_ENTITY'));
    expect(() => uow.delete(undefined as never, 'x')).toThrow(code('UNKNOWN_ENTITY'));
    expect(() => uow.insert(make(Session, { id: 'opt' }), 60 as never)).toThrow(code('BAD_ARGUMENT'));
    // nothing was queued by the refused calls: the unit of work still commits (nothing)
    await uow.commit();
  });

  test('a missing key is KEY_INCOMPLETE before any value is encoded', async () => {
    const repo = db.repository(Session);
    const incomplete = expect.objectContaining({ code: 'KEY_INCOMPLETE', entity: 'Session', store: 'relational' });
    for (const key of [undefined, null]) {
      await expect(repo.get(key as never)).rejects.toEqual(incomplete);
      await expect(repo.exists(key as never)).rejects.toEqual(incomplete);
      await expect(repo.delete(key as never)).rejects.toEqual(incomplete);
      await expect(repo.ttl(key as never)).rejects.toEqual(incomplete);
      await expect(repo.setTtl(key as never, 60)).rejects.toEqual(incomplete);
      await expect(repo.getMany([key as never])).rejects.toEqual(incomplete);
      expect(() => db.unitOfWork().delete(Session, key as never)).toThrow(incomplete);
    }
    const error = (await repo.get(undefined as never).catch((e: unknown) => e)) as LifespanError;
    expect(error.hint).not.toContain('nullable');
    await expect(db.repository(Reading).get(null as never)).rejects.toMatchObject({ code: 'KEY_INCOMPLETE' });
    await expect(db.repository(Reading).get({ sensorId: 'a' })).rejects.toMatchObject({
      code: 'KEY_INCOMPLETE',
      member: 'takenAt',
    });
    // a write without its key member is a VALUE_INVALID naming it, with no advice to make a key nullable
    const write = (await repo
      .insert(make(Session, { id: undefined as never }))
      .catch((e: unknown) => e)) as LifespanError;
    expect(write).toMatchObject({ code: 'VALUE_INVALID', entity: 'Session', member: 'id' });
    expect(write.hint).not.toContain('nullable');
    // a value of the wrong type for the key is VALUE_INVALID
    await expect(repo.get(5 as never)).rejects.toMatchObject({ code: 'VALUE_INVALID', member: 'id' });
  });

  test('arguments of the wrong kind are BAD_ARGUMENT, never a TypeError', async () => {
    const repo = db.repository(Session);
    const bad = expect.objectContaining({ code: 'BAD_ARGUMENT', store: 'relational' });
    await expect(repo.find({}, null as never)).rejects.toEqual(bad);
    await expect(repo.find(null as never)).rejects.toEqual(bad);
    await expect(repo.count(null as never)).rejects.toEqual(bad);
    await expect(repo.insert(make(Session, { id: 'arg' }), 'soon' as never)).rejects.toEqual(bad);
    await expect(repo.upsert(null as never)).rejects.toEqual(bad);
    await expect(repo.getMany(null as never)).rejects.toEqual(bad);
    await expect((repo as RelationalRepository<Session>).deleteWhere({})).rejects.toEqual(bad);
    await expect(db.plan(null as never)).rejects.toEqual(bad);
    await expect(db.apply(null as never)).rejects.toEqual(bad);
    await expect(db.apply(await db.plan(), 1 as never)).rejects.toEqual(bad);
    await expect(db.ensureCollections(7 as never)).rejects.toEqual(bad);
    await expect(db.purgeExpired(null as never)).rejects.toEqual(bad);
    expect(await repo.exists('arg')).toBe(false);
  });

  test('a hand-made model with a bad identifier is a ModelError at connect', async () => {
    const [session] = testModel('bad').entities;
    const bad = { entities: [{ ...session!, collection: 'sessions; DROP TABLE x' }] };
    await expect(connectRelational(bad as never, knex)).rejects.toBeInstanceOf(ModelError);
    await expect(connectRelational(bad as never, knex)).rejects.toMatchObject({ code: 'RELATIONAL_BAD_IDENTIFIER' });
  });
});
