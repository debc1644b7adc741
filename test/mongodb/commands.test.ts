import { BSON, Int32, Double } from 'mongodb';
import { collModCommand, createIndexesCommand, shellCommand } from '../../src/providers/mongodb/commands';
import { checkExpireAfterSeconds, checkTtlKey } from '../../src/providers/mongodb/ttl-limits';
import { entityWrite } from '../../src/providers/mongodb/writes';
import { resolveWriteTtl } from '../../src/model/per-write-ttl';
import { Cart, mapping, Session } from './fixtures';

const spec = (expireAfterSeconds: number) => ({
  field: 'createdAt',
  name: 'createdAt_1',
  key: { createdAt: 1 as const },
  expireAfterSeconds,
});

describe('the mass-deletion guards', () => {
  test.each([
    ['NaN', Number.NaN],
    ['negative', -1],
    ['fractional', 3600.5],
    ['a string', '3600'],
    ['over int32', 2_147_483_648],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['null', null],
    ['a bigint', 3600n],
  ])('expireAfterSeconds %s is never emitted', (_label, value) => {
    expect(() => checkExpireAfterSeconds(value, 'sessions')).toThrow(/MONGO_BAD_EXPIRE_AFTER_SECONDS|refusing to send/);
    expect(() => createIndexesCommand('sessions', spec(value as number))).toThrow(
      /refusing to send expireAfterSeconds/,
    );
    expect(() => collModCommand('sessions', { createdAt: 1 }, value as number)).toThrow(/refusing to send/);
  });

  test('0 and 2147483647 are the bounds MongoDB accepts', () => {
    expect(checkExpireAfterSeconds(0, 'c')).toBe(0);
    expect(checkExpireAfterSeconds(2_147_483_647, 'c')).toBe(2_147_483_647);
  });

  test('never on a compound or _id index', () => {
    expect(() => checkTtlKey({ a: 1, b: 1 }, 'c')).toThrow(/compound index/);
    expect(() => checkTtlKey({}, 'c')).toThrow(/compound index/);
    expect(() => checkTtlKey({ _id: 1 }, 'c')).toThrow(/_id index/);
    expect(() => checkTtlKey({ '_id.day': 1 }, 'c')).toThrow(/_id index/);
    expect(() => collModCommand('c', { a: 1, b: -1 }, 60)).toThrow(/compound/);
    expect(() => createIndexesCommand('c', { ...spec(60), key: { _id: 1 } as never })).toThrow(/_id/);
  });
});

describe('what the driver serialises (mongodb BSON)', () => {
  const roundTrip = (doc: object) => BSON.deserialize(BSON.serialize(doc), { promoteValues: false });

  test('expireAfterSeconds goes out as int32, the type listIndexes echoes back', () => {
    for (const n of [0, 1, 3600, 2_147_483_647]) {
      const create = roundTrip(createIndexesCommand('sessions', spec(n)));
      const [index] = create['indexes'] as Array<Record<string, unknown>>;
      expect(index?.['expireAfterSeconds']).toBeInstanceOf(Int32);
      expect((index?.['expireAfterSeconds'] as Int32).value).toBe(n);
      const mod = roundTrip(collModCommand('sessions', { createdAt: 1 }, n));
      expect((mod['index'] as Record<string, unknown>)['expireAfterSeconds']).toBeInstanceOf(Int32);
    }
  });

  test('a fractional number would have gone out as a double: the guard is what stops it', () => {
    const raw = roundTrip({ expireAfterSeconds: 3600.5 });
    expect(raw['expireAfterSeconds']).toBeInstanceOf(Double);
  });

  test('a write pipeline carries BSON dates and $$NOW arithmetic in milliseconds', () => {
    const at = new Date('2026-02-01T10:00:00Z');
    const session = Object.assign(new Session(), { id: 's1', createdAt: at, payload: '$notAPath' });
    const write = entityWrite(mapping('Session'), session, resolveWriteTtl(undefined), 'insert', false);
    const wire = BSON.deserialize(BSON.serialize({ q: write.filter, u: write.update }));
    const set = ((wire['u'] as Array<Record<string, unknown>>)[0]?.['$set'] ?? {}) as Record<string, unknown>;
    expect(set['createdAt']).toBeInstanceOf(Date);
    expect((set['createdAt'] as Date).toISOString()).toBe('2026-02-01T10:00:00.000Z');
    expect(set['payload']).toEqual({ $literal: '$notAPath' });
    const upsert = entityWrite(mapping('Session'), session, resolveWriteTtl(undefined), 'upsert', false);
    const upsertSet = (
      BSON.deserialize(BSON.serialize({ u: upsert.update }))['u'] as Array<Record<string, unknown>>
    )[0];
    expect(upsertSet?.['$set']).toEqual({
      createdAt: { $ifNull: ['$createdAt', at] },
      payload: { $literal: '$notAPath' },
    });
    const cart = Object.assign(new Cart(), { id: 'c1', items: ['a'] });
    const cartWrite = entityWrite(mapping('Cart'), cart, resolveWriteTtl('1h'), 'upsert', false);
    const canonical = BSON.EJSON.serialize({ u: cartWrite.update }, { relaxed: false }) as {
      u: Array<Record<string, unknown>>;
    };
    expect((canonical.u[0]?.['$set'] as Record<string, unknown>)['expiresAt']).toEqual({
      $add: ['$$NOW', { $numberInt: '3600000' }],
    });
  });

  test('shell text of a command, as mongosh would run it', () => {
    expect(shellCommand({ collMod: 'c', index: { keyPattern: { 'a.b': 1 }, expireAfterSeconds: 5 } })).toBe(
      'db.runCommand({ collMod: "c", index: { keyPattern: { "a.b": 1 }, expireAfterSeconds: 5 } })',
    );
  });
});
