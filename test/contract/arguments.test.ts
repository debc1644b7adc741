/**
 * Contract: the same arguments accepted and refused by every repository and unit of work (issue
 * 14), and one rule for a unit of work's commit options: checked before anything is spent.
 */
import { ErrorCodes } from '../../src';
import { contractModel, sample, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `ca${process.pid % 10000}`;

forEachStore('arguments', contractModel(prefix), prefix, (store, db) => {
  const bad = { code: ErrorCodes.BAD_ARGUMENT, store: store.can.storeName };

  test.each([
    ['a number', 5],
    ['null', null],
    ['a string', '1h'],
    ['an array', []],
  ])('insert/upsert with %s as options is BAD_ARGUMENT and writes nothing', async (label, options) => {
    const id = `opt-${label.replace(/\W/g, '')}`;
    const repo = db().repository(Sample);
    await expect(repo.insert(sample(id), options as never)).rejects.toMatchObject(bad);
    await expect(repo.upsert(sample(id), options as never)).rejects.toMatchObject(bad);
    expect(await repo.get(id)).toBeUndefined();
  });

  test('bad commit options are refused before the unit is spent: it then commits', async () => {
    const unit = db().unitOfWork().upsert(sample('commit-opts'));
    await expect(unit.commit(5 as never)).rejects.toMatchObject(bad);
    expect(await db().repository(Sample).get('commit-opts')).toBeUndefined();
    await unit.commit();
    expect(await db().repository(Sample).get('commit-opts')).toMatchObject({ id: 'commit-opts' });
    await expect(unit.commit()).rejects.toMatchObject({ code: ErrorCodes.UOW_ALREADY_COMMITTED });
  });

  test.each([
    ['null', null],
    ['a number', 5],
    ['a string', 'counts'],
    ['an array', []],
  ])('plan() with %s as options is BAD_ARGUMENT naming the call', async (_label, options) => {
    await expect(db().plan(options as never)).rejects.toMatchObject({
      ...bad,
      detail: expect.stringContaining('plan()'),
    });
  });

  // Also where the store expires natively and there is nothing to count (countExpired() gives undefined).
  test('countExpired() with a number as options is BAD_ARGUMENT', async () => {
    await expect(db().countExpired(5 as never)).rejects.toMatchObject({
      ...bad,
      detail: expect.stringContaining('countExpired()'),
    });
  });

  test('apply() with null as the plan is BAD_ARGUMENT', async () => {
    await expect(db().apply(null as never)).rejects.toMatchObject(bad);
  });

  test('a unit of work refuses a plain object (no entity class) at the call', () => {
    const plain = { ...sample('plain') };
    expect(() => db().unitOfWork().upsert(plain)).toThrow(expect.objectContaining({ code: ErrorCodes.UNKNOWN_ENTITY }));
  });

  test.each([
    ['a number', 5],
    ['null', null],
  ])('a unit of work refuses %s as an entity with BAD_ARGUMENT', (_label, value) => {
    expect(() =>
      db()
        .unitOfWork()
        .insert(value as never),
    ).toThrow(expect.objectContaining(bad));
  });
});

forEachStore('repository entity arguments', contractModel(`${prefix}r`), `${prefix}r`, (store, db) => {
  test('a repository takes a plain object holding the members (it knows its entity), on every store', async () => {
    const repo = db().repository(Sample);
    await repo.upsert({ ...sample('plain-repo') });
    expect(await repo.get('plain-repo')).toBeInstanceOf(Sample);
  });

  test.each([
    ['a number', 5],
    ['null', null],
    ['a string', 'id'],
  ])('a repository refuses %s as the entity with BAD_ARGUMENT', async (_label, value) => {
    await expect(
      db()
        .repository(Sample)
        .insert(value as never),
    ).rejects.toMatchObject({
      code: ErrorCodes.BAD_ARGUMENT,
      store: store.can.storeName,
    });
  });
});
