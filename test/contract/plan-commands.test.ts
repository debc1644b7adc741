/**
 * Contract (issue 14): a plan's `command` text is what apply() runs for the step, for every step
 * kind, so the text people review and the step that runs cannot drift apart: each step is applied
 * through the plan gate against a recording driver, and its command is compared with what the
 * driver received (Cassandra: the CQL itself; Cosmos: the SDK call and its body, pinned with the
 * command). A conflict is never run: the gate refuses it and the driver receives nothing.
 * MongoDB and relational are pinned by their plan tests.
 */
import 'reflect-metadata';
import { ClusteringKey, Entity, Field, Key, ModelBuilder, PartitionKey, TimeToLive } from '../../src';
import type { Database } from '@azure/cosmos';
import { checkPlan, runSteps, type StepRules } from '../../src/core/plan-gate';
import type { PlanStep } from '../../src/core/plan';
import { compileModel } from '../../src/providers/cassandra/compile';
import { Executor, type CqlClient } from '../../src/providers/cassandra/executor';
import { diffSchema } from '../../src/providers/cassandra/plan';
import type { KeyspaceSchema } from '../../src/providers/cassandra/schema';
import { CEILING_2038 } from '../../src/providers/cassandra/semantics';
import { CASSANDRA_STEPS } from '../../src/providers/cassandra/steps';
import type { ContainerSpec } from '../../src/providers/cosmos/compile';
import type { LiveContainer } from '../../src/providers/cosmos/inspect';
import { createDatabaseStep, planSteps, type CosmosStep } from '../../src/providers/cosmos/plan';
import { COSMOS_STEPS } from '../../src/providers/cosmos/steps';

const EVERY_CONSENT = { allowDestructive: true, allowRetroactive: true, allowUnexpiry: true };

/** Applies one step as apply() does: the plan gate judges it, then the step table runs it. */
async function applyStep<P, D extends keyof P & string, Run, Scope>(
  rules: StepRules<P, D, Run, Scope>,
  step: PlanStep<P>,
  run: Run,
  scope: Scope,
): Promise<void> {
  const checked = checkPlan(rules, { store: rules.store, target: 'test', steps: [step] }, EVERY_CONSENT, scope);
  await runSteps(rules, checked, run);
}

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

  /** The CQL the driver receives when the step is applied. */
  async function cqlSentBy(step: (typeof steps)[number]): Promise<string[]> {
    const sent: string[] = [];
    const client = {
      execute: async (query: string) => {
        sent.push(query);
        return { info: { isSchemaInAgreement: true }, rows: [] };
      },
      batch: async () => {
        throw new Error('a schema step sends no batch');
      },
    };
    await applyStep(CASSANDRA_STEPS, step, new Executor(client as unknown as CqlClient), undefined);
    return sent;
  }

  const runnable = steps.filter((s) => s.payload.op !== 'conflict');

  test.each(runnable.map((s) => [s.action, s] as const))('%s: command = the CQL apply() sends', async (_a, step) => {
    const sent = await cqlSentBy(step);
    expect(sent.length).toBeGreaterThan(0);
    expect(step.command).toBe(sent.join(';\n'));
  });

  test('a conflict is refused before the driver receives anything', async () => {
    const conflict = steps.find((s) => s.payload.op === 'conflict');
    if (!conflict) throw new Error('no conflict step');
    await expect(cqlSentBy(conflict)).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
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

  interface Sent {
    readonly call: string;
    readonly body: unknown;
    readonly options?: unknown;
  }

  /**
   * The SDK calls a step makes when applied, on a database whose container 'sessions' is live
   * with partition key /id and DefaultTimeToLive 3600 (what the set-default-ttl step was planned from).
   */
  async function callsOf(step: CosmosStep): Promise<Sent[]> {
    const sent: Sent[] = [];
    const database = {
      id: 'app',
      client: {
        databases: { create: async (body: unknown) => void sent.push({ call: 'client.databases.create', body }) },
      },
      containers: { create: async (body: unknown) => void sent.push({ call: 'database.containers.create', body }) },
      container: (id: string) => ({
        read: async () => ({
          resource: { id, partitionKey: { paths: ['/id'] }, defaultTtl: 3600, _etag: 'e', _rid: 'r', _ts: 1 },
          headers: {},
        }),
        replace: async (body: unknown, options: unknown) =>
          void sent.push({ call: `database.container('${id}').replace`, body, options }),
      }),
    };
    await applyStep(COSMOS_STEPS, step, database as unknown as Database, 'app');
    return sent;
  }

  /** Each step's command, pinned beside the call apply() makes for it. */
  const RUNS: Record<string, { readonly command: string; readonly sent: Sent[] }> = {
    'create-database': {
      command: "client.databases.createIfNotExists({ id: 'app' })",
      sent: [{ call: 'client.databases.create', body: { id: 'app' } }],
    },
    'create-container': {
      command:
        "database.containers.createIfNotExists({ id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 3600 })",
      sent: [
        {
          call: 'database.containers.create',
          body: { id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 3600 },
        },
      ],
    },
    'set-default-ttl': {
      command:
        "const { resource } = await database.container('sessions').read();\n" +
        "await database.container('sessions').replace({ ...resource, defaultTtl: 60 }) " +
        '// keeps partitionKey, indexingPolicy and every other property read; If-Match: resource._etag',
      sent: [
        {
          call: "database.container('sessions').replace",
          body: { id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 60 },
          options: { accessCondition: { type: 'IfMatch', condition: 'e' } },
        },
      ],
    },
  };

  const runnable = steps.filter((s) => s.payload.op !== 'conflict');

  test('every runnable step kind has its pinned run', () => {
    expect(runnable.map((s) => s.payload.op).sort()).toEqual(Object.keys(RUNS).sort());
  });

  test.each(runnable.map((s) => [s.action, s] as const))('%s: command and the call apply() makes', async (_a, step) => {
    const pinned = RUNS[step.payload.op];
    expect({ command: step.command, sent: await callsOf(step) }).toEqual(pinned);
  });

  test('a conflict is refused before the SDK is called', async () => {
    const conflict = steps.find((s) => s.payload.op === 'conflict');
    if (!conflict) throw new Error('no conflict step');
    await expect(callsOf(conflict)).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
  });

  test('a partition key conflict says what to do, as before', () => {
    const conflict = steps.find((s) => s.payload.op === 'conflict');
    expect(conflict?.command).toBe(
      "// not run: create a new container with partitionKey { paths: ['/userId'] }, copy the items of 'sessions' into it, then map the entities to it",
    );
  });
});
