/**
 * Issue 13, finding 4: every value JavaScript can hand lifespan gets a typed LifespanError that
 * names it: bigints, symbols, null-prototype objects, a toString that is not a function, getters
 * that throw, and the names __proto__ / constructor / prototype.
 */
import 'reflect-metadata';
import { Entity, Field, Key, LifespanError, ModelBuilder, ModelError, TimeToLive, TtlError } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { CosmosStore } from '../../src/providers/cosmos';
import { resolveWriteTtl } from '../../src/model/per-write-ttl';
import { keyValues, valuesOf } from '../../src/runtime/entity-values';
import { thrown } from './thrown';

function buildWithTtl(value: unknown) {
  return () => {
    @Entity()
    @TimeToLive(value as never)
    class Cached {
      @Key() id = '';
    }
    return new ModelBuilder().entity(Cached).build();
  };
}

function buildFluent(value: unknown) {
  return () => {
    class Cached {
      id = '';
    }
    return new ModelBuilder().entity(Cached, (e) => e.key((c) => c.id).timeToLive(value as never)).build();
  };
}

const throwingOptions = Object.defineProperty({ ttl: 60 }, 'perWrite', {
  enumerable: true,
  get() {
    throw new Error('boom');
  },
});

describe('TTL options from JavaScript', () => {
  test.each([
    ['perWrite: 1n', { ttl: 60, perWrite: 1n }, /perWrite must be true or false, not 1n/],
    ['member: 1n', { ttl: 60, member: 1n }, /member must be a member name \(a string\), not 1n/],
    ['member: a symbol', { ttl: 60, member: Symbol('m') }, /not Symbol\(m\)/],
    [
      'a null-prototype options object',
      Object.assign(Object.create(null) as object, { ttl: 60, perWrite: 1n }),
      /not 1n/,
    ],
    ['an options object whose toString is not a function', { ttl: { hours: 1n }, toString: 1 }, /toString/],
    ['a getter that throws', throwingOptions, /throw/],
    ['a bigint TTL', 1n, /TTL 1n is a bigint/],
    [
      'a null-prototype duration with a bigint part',
      Object.assign(Object.create(null) as object, { hours: 2n }),
      /hours = 2n/,
    ],
  ])('%s: a ModelError from the decorator and from the fluent call', (_label, value, message) => {
    for (const build of [buildWithTtl(value), buildFluent(value)]) {
      const error = thrown(build);
      expect(error).toBeInstanceOf(ModelError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toMatch(/Cached/);
    }
  });
});

describe('names JavaScript reserves are refused as member, stored and collection names', () => {
  test.each(['__proto__', 'constructor', 'prototype'])('%s', (name) => {
    class AsMember {
      id = '';
    }
    const asMember = thrown(() =>
      new ModelBuilder()
        .entity(AsMember, (e) =>
          e.key((x) => x.id).field((x) => (x as unknown as Record<string, string>)[name], { type: 'string' }),
        )
        .build(),
    );
    expect(asMember).toMatchObject({ code: 'MODEL_BAD_NAME' });
    expect((asMember as Error).message).toContain(name);

    class AsStoredName {
      id = '';
      data = '';
    }
    const asStored = thrown(() =>
      new ModelBuilder().entity(AsStoredName, (e) => e.key((x) => x.id).field((x) => x.data, { name })).build(),
    );
    expect(asStored).toMatchObject({ code: 'MODEL_BAD_NAME' });

    class AsCollection {
      id = '';
    }
    const asCollection = thrown(() =>
      new ModelBuilder().entity(AsCollection, (e) => e.key((x) => x.id).toCollection(name)).build(),
    );
    expect(asCollection).toMatchObject({ code: 'MODEL_BAD_NAME' });
  });
});

describe('store options from JavaScript', () => {
  const client = { execute: () => undefined, batch: () => undefined } as never;
  test.each([
    ['keyspace: 1n', { client, keyspace: 1n }, /keyspace 1n is not a valid Cassandra name/],
    ['keyspace: a symbol', { client, keyspace: Symbol('k') }, /keyspace Symbol\(k\)/],
    ['keyspace: a null-prototype object', { client, keyspace: Object.create(null) as object }, /keyspace/],
    ['expirationCeiling: 1n', { client, keyspace: 'ks', expirationCeiling: 1n }, /expirationCeiling/],
    ['now: 1n', { client, keyspace: 'ks', now: 1n }, /now must be a function/],
  ])('new CassandraStore({ %s })', (_label, options, message) => {
    const error = thrown(() => new CassandraStore(options as never));
    expect(error).toBeInstanceOf(LifespanError);
    expect((error as Error).message).toMatch(message);
  });

  test('new CosmosStore({ hideExpired: 1n })', () => {
    const database = { id: 'db', container: () => undefined } as never;
    const error = thrown(() => new CosmosStore({ database, hideExpired: 1n as never }));
    expect(error).toBeInstanceOf(LifespanError);
    expect((error as Error).message).toMatch(/hideExpired must be true or false, got 1n/);
  });
});

describe('entity instances and keys whose members throw when read', () => {
  @Entity()
  class Note {
    @Key() id = '';
    @Field() text = '';
  }
  const entity = new ModelBuilder().entity(Note).build().entities[0]!;
  const hostile = Object.defineProperty({ id: 'a' }, 'text', {
    enumerable: true,
    get() {
      throw new Error('secret getter');
    },
  });
  test('valuesOf: a VALUE_INVALID naming the member', () => {
    expect(thrown(() => valuesOf(entity, hostile))).toMatchObject({
      code: 'VALUE_INVALID',
      entity: 'Note',
      member: 'text',
    });
  });
  test('keyValues: a VALUE_INVALID naming the member and store', () => {
    const key = Object.defineProperty({}, 'id', {
      get() {
        throw new Error('x');
      },
    });
    expect(thrown(() => keyValues(entity, key, 'cassandra'))).toMatchObject({
      code: 'VALUE_INVALID',
      member: 'id',
      store: 'cassandra',
    });
  });
});

describe('per-write TTL objects whose keys cannot be listed', () => {
  const ownKeysThrows = new Proxy(
    { extend: '1h' },
    {
      ownKeys() {
        throw new Error('no keys for you');
      },
    },
  );
  const ownKeysNotAList = new Proxy({ extend: '1h' }, { ownKeys: () => 1 as never });

  test.each([
    ['an ownKeys trap that throws', ownKeysThrows],
    ['an ownKeys trap that returns a non-list', ownKeysNotAList],
  ])('%s: a TTL_INVALID_TYPE TtlError, not a TypeError or a plain Error', (_label, value) => {
    const error = thrown(() => resolveWriteTtl(value as never));
    expect(error).toBeInstanceOf(TtlError);
    expect(error).toMatchObject({ code: 'TTL_INVALID_TYPE' });
    expect((error as Error).message).toMatch(/per-write TTL .* cannot be read/);
  });
});
