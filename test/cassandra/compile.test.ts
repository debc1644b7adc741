/** Model → Cassandra tables as plain data, and the limits checked while compiling (no server). */
import 'reflect-metadata';
import { Entity, Field, Key, ModelError, TimeToLive, TtlError, type Model } from '../../src';
import model from '../../examples/models';
import { compileModel } from '../../src/providers/cassandra/compile';
import { createTable, setDefaultTtl } from '../../src/providers/cassandra/ddl';
import { CEILING_2038 } from '../../src/providers/cassandra/semantics';
import { checkTtlLimits } from '../../src/providers/cassandra/ttl-limits';
import { build } from './fixtures';

const clock = { now: new Date('2026-01-01T00:00:00Z'), ceiling: CEILING_2038 };

function ddl(m: Model, keyspace: string | null = 'ks'): string[] {
  return compileModel(m, clock).mappings.map((x) => createTable(keyspace, x.table));
}

test('compiles the example model to one CREATE TABLE per entity', () => {
  expect(ddl(model)).toEqual([
    'CREATE TABLE IF NOT EXISTS "ks"."sessions" ("id" text, "createdAt" timestamp, "payload" text, PRIMARY KEY (("id"))) WITH default_time_to_live = 3600',
    'CREATE TABLE IF NOT EXISTS "ks"."visits" ("id" text, "page" text, "lastSeenAt" timestamp, PRIMARY KEY (("id"))) WITH default_time_to_live = 3600',
    'CREATE TABLE IF NOT EXISTS "ks"."carts" ("id" text, "items" text, "updatedAt" timestamp, PRIMARY KEY (("id"))) WITH default_time_to_live = 604800',
    'CREATE TABLE IF NOT EXISTS "ks"."readings" ("sensorId" text, "takenAt" timestamp, "value" double, "createdAt" timestamp, PRIMARY KEY (("sensorId"), "takenAt")) WITH CLUSTERING ORDER BY ("takenAt" DESC) AND default_time_to_live = 2592000',
    // Per-write TTLs only: Cassandra needs no table option for USING TTL.
    'CREATE TABLE IF NOT EXISTS "ks"."cache_entries" ("key" text, "value" text, PRIMARY KEY (("key")))',
    'CREATE TABLE IF NOT EXISTS "ks"."audit_log" ("id" text, "message" text, "createdAt" timestamp, PRIMARY KEY (("id")))',
  ]);
  expect(setDefaultTtl('ks', 'sessions', 0)).toBe('ALTER TABLE "ks"."sessions" WITH default_time_to_live = 0');
});

test('maps every field type to a CQL type, and a composite partition key', () => {
  @Entity('typed')
  class Typed {
    @Key() tenant = '';
    @Key({ type: 'uuid' }) id = '';
    @Field() s = '';
    @Field() n = 0;
    @Field({ type: 'integer' }) i = 0;
    @Field() b = 0n;
    @Field() f = false;
    @Field() d = new Date(0);
    @Field({ type: 'json' }) j: unknown = null;
    @Field() bin = Buffer.alloc(0);
  }
  const [mapping] = compileModel(
    build((b) => b.entity(Typed)),
    clock,
  ).mappings;
  expect(mapping?.table.columns.map((c) => `${c.name} ${c.type} ${c.kind}`)).toEqual([
    'tenant text partition_key',
    'id uuid partition_key',
    's text regular',
    'n double regular',
    'i int regular',
    'b bigint regular',
    'f boolean regular',
    'd timestamp regular',
    'j text regular',
    'bin blob regular',
  ]);
  expect(createTable(null, mapping!.table)).toContain('PRIMARY KEY (("tenant", "id"))');
});

test('a counter table cannot take a TTL, nor share its table with other columns: one ModelError lists both', () => {
  @Entity('bad_counts')
  @TimeToLive('1h')
  class BadCounts {
    @Key() id = '';
    @Field({ type: 'counter' }) n = 0;
    @Field() label = '';
  }
  const bad = build((b) => b.entity(BadCounts));
  let error: unknown;
  try {
    compileModel(bad, clock);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ModelError);
  expect((error as ModelError).problems.map((p) => p.code)).toEqual([
    'CASSANDRA_COUNTER_MIXED',
    'CASSANDRA_COUNTER_TTL',
  ]);
  expect((error as ModelError).message).toContain('Cassandra refuses default_time_to_live on counter tables');
});

describe('TTL limits, judged like the node: rejected when floor(now) + ttl > ceiling', () => {
  const place = { entity: 'E' };

  it('refuses more than 630720000 s whatever the ceiling', () => {
    expect(() => checkTtlLimits(630_720_001, { now: clock.now, ceiling: null }, place, 'TTL')).toThrow(TtlError);
    expect(() => checkTtlLimits(630_720_000, { now: clock.now, ceiling: null }, place, 'TTL')).not.toThrow();
  });

  it('accepts an expiry exactly at the ceiling and refuses one second more', () => {
    const now = new Date(CEILING_2038.getTime() - 3600_000 + 999); // the node truncates now to whole seconds
    expect(() => checkTtlLimits(3600, { now, ceiling: CEILING_2038 }, place, 'TTL')).not.toThrow();
    let error: unknown;
    try {
      checkTtlLimits(3601, { now, ceiling: CEILING_2038 }, place, 'USING TTL');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TtlError);
    expect(error).toMatchObject({ code: 'CASSANDRA_TTL_PAST_CEILING', value: 3601, entity: 'E', store: 'cassandra' });
    expect((error as Error).message).toContain("past the node's expiration ceiling 2038-01-19T03:14:06Z");
    expect((error as Error).message).toContain('use at most 3600 s today');
  });

  it('raises a single TTL problem of the model as that TtlError, naming entity and value', () => {
    @Entity('decades')
    @TimeToLive(400_000_000)
    class Decades {
      @Key() id = '';
    }
    const m = build((b) => b.entity(Decades));
    expect(() => compileModel(m, clock)).toThrow(TtlError);
    expect(() => compileModel(m, clock)).toThrow(/Decades \[cassandra\]: default_time_to_live 400000000 s written now/);
    expect(() => compileModel(m, { now: new Date('2020-01-01T00:00:00Z'), ceiling: CEILING_2038 })).not.toThrow();
    expect(() => compileModel(m, { now: clock.now, ceiling: null })).not.toThrow();
  });
});

test('two entities cannot share a table: each write rewrites every column of its entity', () => {
  @Entity('shared')
  class A {
    @Key() id = '';
  }
  @Entity('shared')
  class B {
    @Key() id = '';
    @Field() x = '';
  }
  expect(() =>
    compileModel(
      build((b) => b.entity(A).entity(B)),
      clock,
    ),
  ).toThrow(/B \[cassandra\]: table 'shared' is also the table of A/);
});
