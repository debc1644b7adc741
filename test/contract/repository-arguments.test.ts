/**
 * Contract: a repository's getMany() keys, find() limit and find() filter members are checked by one
 * set of guards (issue 14): the same input refused on every store with the same code, detail and
 * place, before anything is sent. So are a write's options: a misspelt one is refused, not written
 * as if it were absent.
 */
import { ErrorCodes, LifespanError } from '../../src';
import { contractModel, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cr${process.pid % 10000}`;

forEachStore('repository arguments', contractModel(prefix), prefix, (store, db) => {
  const place = { entity: 'Sample', store: store.can.storeName };

  test.each([
    ['a string', 'a', 'getMany() got "a", not an array of keys'],
    ['null', null, 'getMany() got null, not an array of keys'],
    ['an object', { id: 'a' }, 'getMany() got {"id":"a"}, not an array of keys'],
  ])('getMany(%s) is BAD_ARGUMENT', async (_label, keys, detail) => {
    const failure = db()
      .repository(Sample)
      .getMany(keys as never);
    await expect(failure).rejects.toBeInstanceOf(LifespanError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCodes.BAD_ARGUMENT, ...place, detail });
  });

  test.each([
    ['zero', 0],
    ['a negative number', -1],
    ['a fraction', 1.5],
    ['a string', '3'],
    ['NaN', Number.NaN],
    ['an unsafe integer', 2 ** 53],
  ])('find() with %s as limit is BAD_ARGUMENT', async (_label, limit) => {
    await expect(
      db()
        .repository(Sample)
        .find({}, { limit: limit as never }),
    ).rejects.toMatchObject({
      code: ErrorCodes.BAD_ARGUMENT,
      ...place,
      detail: expect.stringMatching(/^find\(\) got limit .+, not a whole number from 1 to \d+$/),
    });
  });

  test('find() on a member the entity does not have is UNKNOWN_MEMBER naming it', async () => {
    await expect(
      db()
        .repository(Sample)
        .find({ nope: 1 } as never),
    ).rejects.toMatchObject({
      code: ErrorCodes.UNKNOWN_MEMBER,
      ...place,
      member: 'nope',
      detail: '"nope" is not a member of Sample',
    });
  });

  test('getMany(undefined) is BAD_ARGUMENT; count() on an unknown member is UNKNOWN_MEMBER naming it', async () => {
    const repo = db().repository(Sample);
    await expect(repo.getMany(undefined as never)).rejects.toMatchObject({ code: ErrorCodes.BAD_ARGUMENT, ...place });
    await expect(repo.count({ nope: 1 } as never)).rejects.toMatchObject({
      code: ErrorCodes.UNKNOWN_MEMBER,
      ...place,
      member: 'nope',
    });
  });

  const misspelt = { tll: 60 } as never;
  const sample = (id: string) => Object.assign(new Sample(), { id });

  test.each([
    ['insert()', (id: string) => db().repository(Sample).insert(sample(id), misspelt)],
    ['upsert()', (id: string) => db().repository(Sample).upsert(sample(id), misspelt)],
    ['unitOfWork().insert()', (id: string) => db().unitOfWork().insert(sample(id), misspelt).commit()],
    ['unitOfWork().upsert()', (id: string) => db().unitOfWork().upsert(sample(id), misspelt).commit()],
  ])('%s with an unknown option is BAD_ARGUMENT naming it, and writes nothing', async (call, write) => {
    const id = `misspelt-${call.length}-${call.startsWith('unit') ? 'u' : 'r'}`;
    await expect(Promise.resolve().then(() => write(id))).rejects.toMatchObject({
      code: ErrorCodes.BAD_ARGUMENT,
      store: store.can.storeName,
      detail: `${call} has no option "tll"`,
    });
    await expect(db().repository(Sample).get({ id })).resolves.toBeUndefined();
  });

  test('a valid limit is taken', async () => {
    await expect(db().repository(Sample).find({}, { limit: 1 })).resolves.toEqual([]);
  });
});
