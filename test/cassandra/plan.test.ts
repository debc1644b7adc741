/** Desired vs live tables → plan steps, as plain data (no server); and how a plan renders. */
import 'reflect-metadata';
import { ClusteringKey, Entity, Field, Key, PartitionKey, TimeToLive, renderPlanText } from '../../src';
import { compileModel } from '../../src/providers/cassandra/compile';
import { diffSchema } from '../../src/providers/cassandra/plan';
import type { KeyspaceSchema, TableSpec } from '../../src/providers/cassandra/schema';
import { CEILING_2038 } from '../../src/providers/cassandra/semantics';
import { build } from './fixtures';

const clock = { now: new Date('2026-01-01T00:00:00Z'), ceiling: CEILING_2038 };

@Entity('sessions')
@TimeToLive(7200)
class Session {
  @Key() id = '';
  @Field() payload = '';
}

@Entity('sessions')
class Untimed {
  @Key() id = '';
  @Field() payload = '';
}

const live = (table: Partial<TableSpec>): KeyspaceSchema => ({
  keyspace: 'ks',
  tables: [
    {
      name: 'sessions',
      defaultTtl: 3600,
      gcGraceSeconds: 864000,
      columns: [
        { name: 'id', type: 'text', kind: 'partition_key', position: 0, order: null },
        { name: 'payload', type: 'varchar', kind: 'regular', position: -1, order: null },
      ],
      ...table,
    },
  ],
});

const mappings = (cls: new () => object) =>
  compileModel(
    build((b) => b.entity(cls)),
    clock,
  ).mappings;

test('a missing table is one additive CREATE TABLE carrying the TTL', () => {
  const steps = diffSchema(mappings(Session), { keyspace: 'ks', tables: [] });
  expect(steps.map(({ payload: _p, ...s }) => s)).toEqual([
    {
      entity: 'Session',
      collection: 'sessions',
      action: 'create-table',
      class: 'additive',
      summary: 'create table ks.sessions with default_time_to_live = 7200',
      command:
        'CREATE TABLE IF NOT EXISTS "ks"."sessions" ("id" text, "payload" text, PRIMARY KEY (("id"))) WITH default_time_to_live = 7200',
      ttl: { from: null, to: 7200 },
      effect: { kind: 'none', text: 'creates an empty table; no stored data is touched', verified: true },
    },
  ]);
});

test('a changed TTL is one in-place ALTER for new writes only; varchar and text are the same type', () => {
  const steps = diffSchema(mappings(Session), live({}), { rowCounts: new Map([['sessions', 42]]) });
  expect(steps).toHaveLength(1);
  expect(steps[0]).toMatchObject({
    action: 'set-default-ttl',
    class: 'in-place',
    command: 'ALTER TABLE "ks"."sessions" WITH default_time_to_live = 7200',
    ttl: { from: 3600, to: 7200 },
    effect: {
      kind: 'new-writes-only',
      affected: 0,
      text: 'affects new writes only: the 42 existing row(s) keep the expiry stamped when they were written, until rewritten',
    },
  });
  expect(diffSchema(mappings(Session), live({ defaultTtl: 7200 }))).toEqual([]);
});

test('removing the TTL plans default_time_to_live = 0', () => {
  const [step, ...rest] = diffSchema(mappings(Untimed), live({}));
  expect(rest).toEqual([]);
  expect(step).toMatchObject({
    action: 'remove-default-ttl',
    class: 'in-place',
    command: 'ALTER TABLE "ks"."sessions" WITH default_time_to_live = 0',
    ttl: { from: 3600, to: null },
  });
  expect(step?.effect?.text).toMatch(/^affects new writes only: they no longer expire by default/);
});

test('key and type changes are conflicts; with allowDestructive one drop-and-recreate step', () => {
  @Entity('sessions')
  @TimeToLive(3600)
  class Rekeyed {
    @PartitionKey() id = '';
    @ClusteringKey('desc') @Field({ type: 'date' }) at = new Date(0);
    @Field({ type: 'integer' }) payload = 0;
  }
  const conflicts = diffSchema(mappings(Rekeyed), live({}));
  expect(conflicts.map((s) => [s.action, s.class, s.summary])).toEqual([
    [
      'change-primary-key',
      'conflict',
      'ks.sessions: the primary key is ((id text)) live but ((id text), at timestamp desc) in the model; Cassandra cannot change a primary key in place',
    ],
    [
      'change-column-type',
      'conflict',
      "ks.sessions: column payload is varchar live but int in the model; Cassandra cannot change a column's type in place",
    ],
  ]);
  expect(conflicts.every((s) => s.payload.statements.length === 0)).toBe(true);

  const destructive = diffSchema(mappings(Rekeyed), live({}), { allowDestructive: true });
  expect(destructive.map((s) => [s.action, s.class, s.command])).toEqual([
    [
      'recreate-table',
      'destructive',
      'DROP TABLE IF EXISTS "ks"."sessions";\nCREATE TABLE IF NOT EXISTS "ks"."sessions" ("id" text, "at" timestamp, "payload" int, PRIMARY KEY (("id"), "at")) WITH CLUSTERING ORDER BY ("at" DESC) AND default_time_to_live = 3600',
    ],
  ]);
});

test('a clustering order change is a key conflict; a missing column is additive; extra live columns stay', () => {
  @Entity('sessions')
  @TimeToLive(3600)
  class Ordered {
    @PartitionKey() id = '';
    @ClusteringKey('asc') @Field({ type: 'date' }) at = new Date(0);
    @Field() payload = '';
    @Field() extra = false;
  }
  const liveOrdered = live({
    columns: [
      { name: 'id', type: 'text', kind: 'partition_key', position: 0, order: null },
      { name: 'at', type: 'timestamp', kind: 'clustering', position: 0, order: 'desc' },
      { name: 'payload', type: 'text', kind: 'regular', position: -1, order: null },
      { name: 'legacy', type: 'int', kind: 'regular', position: -1, order: null },
    ],
  });
  expect(diffSchema(mappings(Ordered), liveOrdered).map((s) => [s.action, s.class])).toEqual([
    ['change-primary-key', 'conflict'],
    ['add-column', 'additive'],
  ]);
  const sameOrder = live({
    columns: liveOrdered.tables[0]!.columns.map((c) => (c.kind === 'clustering' ? { ...c, order: 'asc' as const } : c)),
  });
  expect(diffSchema(mappings(Ordered), sameOrder).map((s) => s.command)).toEqual([
    'ALTER TABLE "ks"."sessions" ADD "extra" boolean',
  ]);
});

test('renders a TTL change old → new with its effect', () => {
  const steps = diffSchema(mappings(Session), live({}));
  expect(renderPlanText({ store: 'cassandra', target: 'cassandra://127.0.0.1:9042/ks', steps })).toBe(
    [
      'cassandra (cassandra://127.0.0.1:9042/ks): 1 step(s)',
      '1. [in-place] set default_time_to_live of ks.sessions: 3600s → 7200s',
      '   TTL 1h → 2h (3600 s → 7200 s)',
      '   effect: new-writes-only: affects new writes only: existing cells keep the expiry stamped when they were written, until rewritten',
      '   takes effect: at apply, for writes after it',
      '   ALTER TABLE "ks"."sessions" WITH default_time_to_live = 7200',
      '',
    ].join('\n'),
  );
});
