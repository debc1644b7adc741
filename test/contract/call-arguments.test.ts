/**
 * Contract (issue 14): one rule on every store for a find()/count() filter, find() options, the
 * entity handed to insert/upsert and the key handed to get/delete. A filter is an object ({} means
 * every record) or left out; null is refused. An entity is a plain object of its members or an
 * instance of the repository's own class. A key is the key value (single-member key) or an object.
 */
import { ErrorCodes, LifespanError } from '../../src';
import { contractModel, order, Order, sample, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cg${process.pid % 10000}`;

forEachStore('call arguments', contractModel(prefix), prefix, (store, db) => {
  const place = { entity: 'Sample', store: store.can.storeName };

  beforeAll(async () => {
    await db().repository(Sample).upsert(sample('one'));
  });

  test('find()/count() with no filter or {} read every record', async () => {
    const repo = db().repository(Sample);
    expect(await repo.find()).toHaveLength(1);
    expect(await repo.find({})).toHaveLength(1);
    expect(await repo.find(undefined, { limit: 5 })).toHaveLength(1);
    expect(await repo.count()).toBe(1);
    expect(await repo.count({})).toBe(1);
  });

  test.each([
    ['null', null, 'null'],
    ['a string', 'one', '"one"'],
    ['an array', [], '[]'],
    ['a number', 5, '5'],
  ])('find()/count() with %s as the filter is BAD_ARGUMENT naming it', async (_label, filter, shown) => {
    const repo = db().repository(Sample);
    const find = repo.find(filter as never);
    await expect(find).rejects.toBeInstanceOf(LifespanError);
    await expect(find).rejects.toMatchObject({
      code: ErrorCodes.BAD_ARGUMENT,
      ...place,
      detail: `find() got ${shown} as its filter`,
      hint: 'pass an object of member values, e.g. { member: value }; pass {} or nothing for every record',
    });
    await expect(repo.count(filter as never)).rejects.toMatchObject({
      code: ErrorCodes.BAD_ARGUMENT,
      ...place,
      detail: `count() got ${shown} as its filter`,
    });
  });

  test.each([
    ['null', null],
    ['a number', 5],
  ])('find() with %s as options is BAD_ARGUMENT', async (_label, options) => {
    await expect(
      db()
        .repository(Sample)
        .find({}, options as never),
    ).rejects.toMatchObject({
      code: ErrorCodes.BAD_ARGUMENT,
      ...place,
      detail: expect.stringMatching(/^find\(\) got .+ as its options$/),
    });
  });

  test.each([
    ['null', null, 'null'],
    ['a number', 5, '5'],
    ['a string', 'id', '"id"'],
    ['an array', [sample('arr')], 'an array'],
    ['an instance of another entity', order('u', 'o1', 3), 'an Order'],
    ['a Date', new Date(0), 'a Date'],
  ])('insert/upsert with %s as the entity is BAD_ARGUMENT and writes nothing', async (_label, value, shown) => {
    const repo = db().repository(Sample);
    for (const call of ['insert', 'upsert'] as const) {
      const failure = repo[call](value as never);
      await expect(failure).rejects.toBeInstanceOf(LifespanError);
      await expect(failure).rejects.toMatchObject({
        code: ErrorCodes.BAD_ARGUMENT,
        ...place,
        detail: `${call}() got ${shown}, not a Sample`,
        hint: 'pass a Sample or a plain object of its members, e.g. Object.assign(new Sample(), { ... })',
      });
    }
    expect(await repo.count()).toBe(1);
  });

  test('insert/upsert take a plain object of the members and an instance of the class', async () => {
    const repo = db().repository(Sample);
    await repo.insert({ ...sample('plain-insert') });
    await repo.upsert(sample('instance-upsert'));
    expect(await repo.get('plain-insert')).toBeInstanceOf(Sample);
    expect(await repo.get('instance-upsert')).toBeInstanceOf(Sample);
    await repo.delete('plain-insert');
    await repo.delete('instance-upsert');
  });

  test('a unit of work: array, null, primitive BAD_ARGUMENT; a plain object UNKNOWN_ENTITY', () => {
    const unit = db().unitOfWork();
    for (const value of [null, undefined, 5, 'x', [sample('a')]]) {
      expect(() => unit.insert(value as never)).toThrow(expect.objectContaining({ code: ErrorCodes.BAD_ARGUMENT }));
      expect(() => unit.upsert(value as never)).toThrow(expect.objectContaining({ code: ErrorCodes.BAD_ARGUMENT }));
    }
    expect(() => unit.insert({ ...sample('p') })).toThrow(expect.objectContaining({ code: ErrorCodes.UNKNOWN_ENTITY }));
    expect(() => unit.insert(Object.create(null) as object)).toThrow(
      expect.objectContaining({ code: ErrorCodes.UNKNOWN_ENTITY }),
    );
    expect(() => unit.insert(sample('opt'), 60 as never)).toThrow(
      expect.objectContaining({ code: ErrorCodes.BAD_ARGUMENT }),
    );
  });

  test('get/delete take the key value, a plain key object or an instance', async () => {
    const repo = db().repository(Sample);
    expect(await repo.get({ id: 'one' })).toMatchObject({ id: 'one' });
    expect(await repo.get(sample('one'))).toMatchObject({ id: 'one' });
    expect(await repo.get('one')).toMatchObject({ id: 'one' });
    expect(await db().repository(Order).get({ userId: 'u', id: 'none' })).toBeUndefined();
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['an empty object', {}],
    ['an empty array', []],
  ])('get/delete with %s as the key is KEY_INCOMPLETE', async (_label, key) => {
    const repo = db().repository(Sample);
    for (const call of ['get', 'delete', 'exists'] as const) {
      const failure = repo[call](key as never);
      await expect(failure).rejects.toBeInstanceOf(LifespanError);
      await expect(failure).rejects.toMatchObject({ code: ErrorCodes.KEY_INCOMPLETE, ...place });
    }
  });

  test('no key at all is KEY_INCOMPLETE on every key path, before any value is encoded', async () => {
    const repo = db().repository(Sample);
    const incomplete = expect.objectContaining({ code: ErrorCodes.KEY_INCOMPLETE, ...place });
    for (const key of [undefined, null]) {
      await expect(repo.ttl(key as never)).rejects.toEqual(incomplete);
      await expect(repo.setTtl(key as never, 60)).rejects.toEqual(incomplete);
      await expect(repo.getMany([key as never])).rejects.toEqual(incomplete);
    }
    const error = (await repo.get(undefined as never).catch((e: unknown) => e)) as LifespanError;
    expect(error.hint).not.toContain('nullable');
  });

  test('a unit of work refuses a missing key at delete(), not at commit', () => {
    for (const key of [undefined, null]) {
      expect(() =>
        db()
          .unitOfWork()
          .delete(Sample, key as never),
      ).toThrow(expect.objectContaining({ code: ErrorCodes.KEY_INCOMPLETE, ...place }));
    }
  });

  test('a unit of work refuses a compound key without one member at delete(), naming it', () => {
    expect(() =>
      db()
        .unitOfWork()
        .delete(Order, { userId: 'u' } as never),
    ).toThrow(
      expect.objectContaining({
        code: ErrorCodes.KEY_INCOMPLETE,
        entity: 'Order',
        store: store.can.storeName,
        member: 'id',
      }),
    );
  });

  test('a compound key without one member is KEY_INCOMPLETE naming it, in get and getMany', async () => {
    const orders = db().repository(Order);
    const incomplete = { code: ErrorCodes.KEY_INCOMPLETE, entity: 'Order', store: store.can.storeName };
    await expect(orders.get({ userId: 'u' } as never)).rejects.toMatchObject({ ...incomplete, member: 'id' });
    await expect(orders.getMany([{ userId: 'u' } as never])).rejects.toMatchObject(incomplete);
  });

  test('a write without its key member is VALUE_INVALID naming the member', async () => {
    await expect(
      db()
        .repository(Sample)
        .insert(sample(undefined as never)),
    ).rejects.toMatchObject({ code: ErrorCodes.VALUE_INVALID, ...place, member: 'id' });
  });

  test('the error for a missing key member never advises a nullable key', async () => {
    const write = await db()
      .repository(Sample)
      .insert(sample(undefined as never))
      .catch((e: unknown) => e);
    expect(write).toBeInstanceOf(LifespanError);
    expect((write as LifespanError).hint).not.toContain('nullable');
  });

  test('a key of the wrong type is VALUE_INVALID naming the member', async () => {
    await expect(
      db()
        .repository(Sample)
        .get(5 as never),
    ).rejects.toMatchObject({ code: ErrorCodes.VALUE_INVALID, ...place, member: 'id' });
  });

  test('a single value for a compound key is KEY_INCOMPLETE', async () => {
    const repo = db().repository(Order);
    for (const call of ['get', 'delete'] as const) {
      await expect(repo[call]('u' as never)).rejects.toMatchObject({
        code: ErrorCodes.KEY_INCOMPLETE,
        entity: 'Order',
        store: store.can.storeName,
      });
    }
  });
});
