/**
 * Contract (issue 14): a plan's `command` text is what the store's step table renders from the
 * payload apply() runs, for every step kind (conflicts included), so the text people review and
 * the step that runs cannot drift apart. MongoDB and relational are pinned by their plan tests;
 * this pins Cassandra and Cosmos, whose renderers were only type-checked.
 */
import 'reflect-metadata';
import { ClusteringKey, Entity, Field, Key, ModelBuilder, PartitionKey, TimeToLive } from '../../src';
import { renderStep } from '../../src/core/plan-gate';
import { compileModel } from '../../src/providers/cassandra/compile';
import { diffSchema } from '../../src/providers/cassandra/plan';
import type { KeyspaceSchema } from '../../src/providers/cassandra/schema';
import { CEILING_2038 } from '../../src/providers/cassandra/semantics';
import { CASSANDRA_STEPS } from '../../src/providers/cassandra/steps';
import type { ContainerSpec } from '../../src/providers/cosmos/compile';
import type { LiveContainer } from '../../src/providers/cosmos/inspect';
import { createDatabaseStep, planSteps } from '../../src/providers/cosmos/plan';
import { COSMOS_STEPS } from '../../src/providers/cosmos/steps';

@Entity('sessions')
@TimeToLive(7200)
class Session {
  @Key() id = '';
  @Field() payload = '';
  @Field() added = '';
}

@Entity('sessions')
@TimeToLive(3600)
class Rekeyed {
  @PartitionKey() id = '';
  @ClusteringKey('desc') @Field({ type: 'date' }) at = new Date(0);
  @Field() payload = '';
}

const cassandraMappings = (cls: new () => object) =>
  compileModel(new ModelBuilder().entity(cls).build(), { now: new Date('2026-01-01T00:00:00Z'), ceiling: CEILING_2038 })
    .mappings;

const liveTable: KeyspaceSchema = {
  keyspace: 'ks',
  tables: [
    {
      name: 'sessions',
      defaultTtl: 3600,
      gcGraceSeconds: 864000,
      columns: [
        { name: 'id', type: 'text', kind: 'partition_key', position: 0, order: null },
        { name: 'payload', type: 'text', kind: 'regular', position: -1, order: null },
      ],
    },
  ],
};

describe('cassandra: plan commands come from the step table', () => {
  const steps = [
    ...diffSchema(cassandraMappings(Session), { keyspace: 'ks', tables: [] }),
    ...diffSchema(cassandraMappings(Session), liveTable),
    ...diffSchema(cassandraMappings(Rekeyed), liveTable),
    ...diffSchema(cassandraMappings(Rekeyed), liveTable, { allowDestructive: true }),
  ];

  test('every step kind is covered', () => {
    expect(new Set(steps.map((s) => s.payload.op))).toEqual(new Set(Object.keys(CASSANDRA_STEPS.table)));
  });

  test.each(steps.map((s) => [s.action, s] as const))('%s: command = render(payload)', (_action, step) => {
    expect(step.command).toBe(renderStep(CASSANDRA_STEPS, step.payload));
  });

  test('a conflict names the table allowDestructive would drop, as before', () => {
    const conflict = steps.find((s) => s.payload.op === 'conflict');
    expect(conflict?.command).toBe(
      '-- not run: needs a new table and a copy of the data (or plan({ allowDestructive: true }) to drop ks.sessions)',
    );
  });
});

describe('cosmos: plan commands come from the step table', () => {
  const spec = (defaultTtl: number | null, partitionKeyPath = '/id'): ContainerSpec => ({
    id: 'sessions',
    partitionKeyPath,
    defaultTtl,
    entities: ['Session'],
  });
  const live = (defaultTtl: number | null): LiveContainer => ({
    id: 'sessions',
    exists: true,
    partitionKeyPaths: ['/id'],
    defaultTtl,
    etag: 'e',
    definition: { id: 'sessions', partitionKey: { paths: ['/id'] } },
  });
  const missing: LiveContainer = { ...live(null), exists: false, partitionKeyPaths: [], definition: {} };
  const steps = [
    createDatabaseStep('app'),
    ...planSteps([spec(3600)], [missing]),
    ...planSteps([spec(60)], [live(3600)]),
    ...planSteps([spec(60, '/userId')], [live(60)]),
  ];

  test('every step kind is covered', () => {
    expect(new Set(steps.map((s) => s.payload.op))).toEqual(new Set(Object.keys(COSMOS_STEPS.table)));
  });

  test.each(steps.map((s) => [s.action, s] as const))('%s: command = render(payload)', (_action, step) => {
    expect(step.command).toBe(renderStep(COSMOS_STEPS, step.payload));
  });

  test('a partition key conflict says what to do, as before', () => {
    const conflict = steps.find((s) => s.payload.op === 'conflict');
    expect(conflict?.command).toBe(
      "// not run: create a new container with partitionKey { paths: ['/userId'] }, copy the items of 'sessions' into it, then map the entities to it",
    );
  });
});
