/** Repositories and units of work on every engine: values round-trip, CRUD, filters, transactions. */
import type { Knex } from 'knex';
import { LifespanError, ModelError, type StoreContext } from '../../src';
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

  test('a null filter on a nullable member matches null', async () => {
    const repo = db.repository(Sample);
    await repo.insert(make(Sample, { id: 'n1', note: null }));
    await repo.insert(make(Sample, { id: 'n2', note: 'x' }));
    expect((await repo.find({ note: null, id: 'n1' })).map((s) => s.id)).toEqual(['n1']);
    expect((await repo.find({ note: 'x' })).map((s) => s.id)).toEqual(['n2']);
  });

  // Arguments every store takes the same way are the contract suite's (test/contract/*arguments*).
  test('the relational-only calls refuse arguments of the wrong kind with BAD_ARGUMENT, never a TypeError', async () => {
    const repo = db.repository(Session);
    const bad = expect.objectContaining({ code: 'BAD_ARGUMENT', store: 'relational' });
    await expect((repo as RelationalRepository<Session>).deleteWhere({})).rejects.toEqual(bad);
    await expect(db.purgeExpired(null as never)).rejects.toEqual(bad);
  });

  test('a hand-made model with a bad identifier is a ModelError at connect', async () => {
    const [session] = testModel('bad').entities;
    const bad = { entities: [{ ...session!, collection: 'sessions; DROP TABLE x' }] };
    await expect(connectRelational(bad as never, knex)).rejects.toBeInstanceOf(ModelError);
    await expect(connectRelational(bad as never, knex)).rejects.toMatchObject({ code: 'RELATIONAL_BAD_IDENTIFIER' });
  });
});
