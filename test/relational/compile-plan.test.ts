/** Compile, plan and the statement text as plain data: no server needed. */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, ModelError, PartitionKey, type Model } from '../../src';
import { model } from '../../examples/models';
import { compileSchema, type CompiledSchema, type TableSpec } from '../../src/providers/relational/compile';
import type { RelationalDialect } from '../../src/providers/relational/families/dialects';
import type { LiveTable } from '../../src/providers/relational/schema/live-table';
import { planSteps, type PlanInput, type RelationalStep } from '../../src/providers/relational/plan';
import { checkPlan } from '../../src/core/plan-gate';
import type { MigrationPlan } from '../../src/core/plan';
import type { ApplyOptions } from '../../src/providers/contract';
import { RELATIONAL_STEPS, isDestructive } from '../../src/providers/relational/steps';

/** What apply() judges a plan by: the one plan gate over the relational step table. */
const checkedSteps = (plan: MigrationPlan, options: ApplyOptions = {}) =>
  checkPlan(RELATIONAL_STEPS, plan, options, undefined);
import { recordOf } from '../../src/providers/relational/schema/ttl-record';
import { TableSql } from '../../src/providers/relational/table/table-sql';
import { findWhere, selectByKey, selectByKeys } from '../../src/providers/relational/read/read-sql';
import { firstPurgeBatch } from '../../src/providers/relational/purge/purge';
import { insertRow, setExpiry, upsertRow } from '../../src/providers/relational/write/write-sql';

function modelError(fn: () => unknown): ModelError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('expected a ModelError');
}

/** The live table exactly as the spec wants it. */
function liveOf(spec: TableSpec): LiveTable {
  return {
    table: spec.table,
    columns: spec.columns.map((c) => ({
      name: c.name,
      type: c.type.live,
      nullable: c.nullable,
      collation: c.type.collation,
    })),
    primaryKey: [...spec.primaryKey],
    indexes: spec.expiry ? [{ name: spec.expiry.index, columns: [spec.expiry.column] }] : [],
  };
}

function liveMap(tables: readonly TableSpec[], change: (t: LiveTable) => LiveTable = (t) => t) {
  return new Map(tables.map((t) => [t.table, change(liveOf(t))] as const));
}

/** Plan input whose TTL records match `schema` (what a previous apply of it recorded). */
function input(schema: CompiledSchema, extra: Partial<PlanInput> = {}): PlanInput {
  const records = new Map(schema.tables.filter((t) => t.expiry).map((t) => [t.table, recordOf(t)] as const));
  return { allowDestructive: false, records, recordTableExists: true, ...extra };
}

describe('compile', () => {
  test('tables, keys, order and the expiry column only where TTL is emulated', () => {
    const emulated = compileSchema(model, 'postgres', 'emulate');
    const reading = emulated.tables.find((t) => t.entity === 'Reading');
    expect(reading).toMatchObject({
      table: 'readings',
      primaryKey: ['sensorId', 'takenAt'],
      orderBy: [
        { column: 'sensorId', order: 'asc' },
        { column: 'takenAt', order: 'desc' },
      ],
      expiry: { column: 'expires_at', index: 'ix_readings_expires_at' },
      ttlSeconds: 2592000,
    });
    expect(emulated.tables.find((t) => t.entity === 'AuditLog')?.expiry).toBeNull();
    expect(compileSchema(model, 'postgres', 'ignore').tables.every((t) => t.expiry === null)).toBe(true);
  });

  test('a hand-made model with names that are not identifiers is refused, every name reported', () => {
    const [session] = model.entities;
    const bad: Model = {
      entities: [
        {
          ...session!,
          collection: 'ses"sions',
          fields: session!.fields.map((f) => (f.member === 'payload' ? { ...f, storedName: 'pay load' } : f)),
        },
      ],
    };
    const error = modelError(() => compileSchema(bad, 'sqlite', 'ignore'));
    expect(error.problems.map((p) => [p.code, p.member])).toEqual([
      ['RELATIONAL_BAD_IDENTIFIER', undefined],
      ['RELATIONAL_BAD_IDENTIFIER', 'payload'],
    ]);
  });

  test('two entities on one table, and MariaDB keys too wide for an index', () => {
    @Entity('shared')
    class A {
      @Key() id = '';
    }
    @Entity('SHARED')
    class B {
      @Key() id = '';
    }
    const twice = new ModelBuilder().entity(A).entity(B).build();
    expect(modelError(() => compileSchema(twice, 'sqlite', 'ignore')).problems[0]?.code).toBe(
      'RELATIONAL_DUPLICATE_TABLE',
    );
    @Entity('wide')
    class Wide {
      @PartitionKey() a = '';
      @PartitionKey() b = '';
      @PartitionKey() c = '';
      @PartitionKey() d = '';
      @Field() v = 0;
    }
    const wide = new ModelBuilder().entity(Wide).build();
    expect(compileSchema(wide, 'sqlite', 'ignore').tables).toHaveLength(1);
    expect(modelError(() => compileSchema(wide, 'mariadb', 'ignore')).problems[0]?.code).toBe(
      'RELATIONAL_KEY_TOO_WIDE',
    );
  });
});

describe('plan', () => {
  test.each(['sqlite', 'postgres', 'mariadb', 'mysql'] as const)('%s: nothing live → create every table', (dialect) => {
    const schema = compileSchema(model, dialect, 'emulate');
    const steps = planSteps(schema, new Map(), input(schema, { records: new Map(), recordTableExists: false }));
    expect(steps.map((s) => [s.action, s.class])).toEqual(schema.tables.map(() => ['create-table', 'additive']));
    expect(steps[0]?.ttl).toEqual({ from: null, to: 3600 });
    // the first emulated table creates the TTL record table; every emulated table records its TTL
    expect(
      steps[0]?.payload.sql.some((q) => q.includes('CREATE TABLE IF NOT EXISTS') && q.includes('lifespan_ttl')),
    ).toBe(true);
    expect(steps.find((s) => s.entity === 'AuditLog')?.payload.sql.join()).not.toContain('lifespan_ttl');
  });

  test('in sync → no steps; MariaDB display widths do not count as a difference', () => {
    const schema = compileSchema(model, 'mariadb', 'emulate');
    expect(planSteps(schema, liveMap(schema.tables), input(schema))).toEqual([]);
    const widths = liveMap(schema.tables, (t) => ({
      ...t,
      columns: t.columns.map((c) => (c.type === 'bigint' ? { ...c, type: 'bigint' } : c)),
    }));
    expect(planSteps(schema, widths, input(schema))).toEqual([]);
  });

  test('emulation on: add expires_at and its index, additive, new writes only', () => {
    const ignore = compileSchema(model, 'sqlite', 'ignore');
    const emulate = compileSchema(model, 'sqlite', 'emulate');
    const steps = planSteps(emulate, liveMap(ignore.tables), input(emulate, { records: new Map() }));
    const sessions = steps.filter((s) => s.collection === 'sessions');
    expect(sessions.map((s) => [s.action, s.class, s.command])).toEqual([
      [
        'add-expiry-column',
        'additive',
        'ALTER TABLE "sessions" ADD COLUMN "expires_at" INTEGER NULL;\n' +
          'INSERT INTO "lifespan_ttl" ("table_name", "ttl_seconds", "counts_from") VALUES (\'sessions\', 3600, \'last-write\') ' +
          'ON CONFLICT ("table_name") DO UPDATE SET "ttl_seconds" = excluded."ttl_seconds", "counts_from" = excluded."counts_from"',
      ],
      [
        'create-expiry-index',
        'additive',
        'CREATE INDEX IF NOT EXISTS "ix_sessions_expires_at" ON "sessions" ("expires_at")',
      ],
    ]);
    expect(sessions[0]?.effect).toMatchObject({ kind: 'new-writes-only', verified: true });
    expect(steps.some((s) => s.collection === 'audit_log')).toBe(false);
  });

  test('emulation off: the column is kept (a conflict) unless destructive steps are allowed', () => {
    const ignore = compileSchema(model, 'postgres', 'ignore');
    const emulate = compileSchema(model, 'postgres', 'emulate');
    const live = liveMap(emulate.tables);
    const kept = planSteps(ignore, live, input(emulate));
    expect(new Set(kept.map((s) => [s.action, s.class, s.payload.blocking].join()))).toEqual(
      new Set(['keep-expiry-column,conflict,false']),
    );
    const dropped = planSteps(
      ignore,
      live,
      input(emulate, { allowDestructive: true, dueRows: new Map([['sessions', 4]]) }),
    );
    const sessions = dropped.find((s) => s.collection === 'sessions');
    expect(sessions).toMatchObject({ action: 'drop-expiry-column', class: 'destructive', effect: { affected: 4 } });
    expect(sessions?.payload.sql).toEqual([
      'DROP INDEX IF EXISTS "ix_sessions_expires_at"',
      'ALTER TABLE "sessions" DROP COLUMN "expires_at"',
      'DELETE FROM "lifespan_ttl" WHERE "table_name" = \'sessions\'',
    ]);
    expect(sessions?.payload.op).toBe('drop-expiry-column');
  });

  test('every step names its operation; conflicts carry a public blocking flag, other steps none', () => {
    const ignore = compileSchema(model, 'sqlite', 'ignore');
    const emulate = compileSchema(model, 'sqlite', 'emulate');
    const steps = [
      ...planSteps(emulate, new Map(), input(emulate, { records: new Map(), recordTableExists: false })),
      ...planSteps(ignore, liveMap(emulate.tables), input(emulate)),
      ...planSteps(ignore, liveMap(emulate.tables), input(emulate, { allowDestructive: true })),
    ];
    for (const step of steps) {
      expect(step.payload.op).toBe(step.action);
      if (step.class === 'conflict') expect(step.blocking).toBe(step.payload.blocking);
      else expect(step).not.toHaveProperty('blocking');
    }
    expect(new Set(steps.map((s) => s.class))).toEqual(new Set(['additive', 'conflict', 'destructive']));
  });

  test('apply judges a step by its operation and statements, never by its class alone', () => {
    const ignore = compileSchema(model, 'postgres', 'ignore');
    const emulate = compileSchema(model, 'postgres', 'emulate');
    const [drop] = planSteps(ignore, liveMap(emulate.tables), input(emulate, { allowDestructive: true }));
    const relabel = (step: RelationalStep, change: object): RelationalStep => ({ ...step, ...change });
    const asPlan = (steps: RelationalStep[]) => ({ store: 'relational', target: 'test', steps });
    const refused = (steps: RelationalStep[]) => {
      try {
        checkedSteps(asPlan(steps), { allowDestructive: false });
      } catch (error) {
        return (error as { code: string }).code;
      }
      return 'applied';
    };
    expect(refused([drop!])).toBe('PLAN_DESTRUCTIVE_NOT_ALLOWED');
    expect(refused([relabel(drop!, { class: 'additive' })])).toBe('PLAN_DESTRUCTIVE_NOT_ALLOWED');
    const disguised = relabel(drop!, { class: 'in-place', payload: { ...drop!.payload, op: 'set-ttl' } });
    expect(isDestructive(disguised)).toBe(true);
    // A drop is not a statement a set-ttl step runs: refused outright, consent or not.
    expect(refused([disguised])).toBe('PLAN_BAD_STEP');
    expect(() => checkedSteps(asPlan([disguised]), { allowDestructive: true })).toThrow(
      expect.objectContaining({ code: 'PLAN_BAD_STEP' }),
    );
    const conflict = relabel(drop!, {
      class: 'additive',
      blocking: false,
      payload: { op: 'column-type', sql: [], blocking: true },
    });
    expect(refused([conflict])).toBe('PLAN_CONFLICT');
    expect(() => checkedSteps(asPlan([{ ...drop!, payload: { sql: drop!.payload.sql } as never }]))).toThrow(
      expect.objectContaining({ code: 'PLAN_BAD_STEP' }),
    );
    expect(() => checkedSteps(asPlan([{ ...drop!, payload: null as never }]))).toThrow(
      expect.objectContaining({ code: 'PLAN_BAD_STEP' }),
    );
  });

  test('type, key and NOT NULL differences are blocking conflicts', () => {
    const schema = compileSchema(model, 'sqlite', 'ignore');
    const live = liveMap(schema.tables, (t) =>
      t.table !== 'sessions'
        ? t
        : {
            ...t,
            columns: t.columns
              .filter((c) => c.name !== 'payload')
              .map((c) => (c.name === 'createdAt' ? { ...c, type: 'text' } : c)),
            primaryKey: ['id', 'createdAt'],
          },
    );
    const steps = planSteps(schema, live, input(schema, { allowDestructive: true }));
    expect(steps.map((s) => [s.action, s.class, s.payload.blocking])).toEqual([
      ['column-type', 'conflict', true],
      ['add-column', 'conflict', true],
      ['primary-key', 'conflict', true],
    ]);
  });
});

describe('plan: TTL changes of emulated tables', () => {
  const changed = (ttl: string) => {
    @Entity('sessions')
    class S {
      @Key() id = '';
    }
    return new ModelBuilder().entity(S, (e) => e.timeToLive(ttl)).build();
  };

  test.each(['sqlite', 'postgres', 'mariadb'] as const)(
    '%s: 1h → 5m is one in-place step, new writes only',
    (dialect) => {
      const before = compileSchema(changed('1h'), dialect, 'emulate');
      const after = compileSchema(changed('5m'), dialect, 'emulate');
      const steps = planSteps(after, liveMap(before.tables), input(before, { counts: true }));
      expect(steps).toHaveLength(1);
      expect(steps[0]).toMatchObject({
        action: 'set-ttl',
        class: 'in-place',
        ttl: { from: 3600, to: 300 },
        effect: { kind: 'new-writes-only', affected: 0, verified: true },
      });
      expect(steps[0]?.command).toContain(', 300, ');
      expect(steps[0]?.summary).toBe(
        'TTL of sessions: 3600s after each write → 300s after each write (emulated: lifespan stamps the new TTL on every write)',
      );
    },
  );

  test('a table without a record gets one (additive); a changed anchor is a TTL change', () => {
    const schema = compileSchema(model, 'sqlite', 'emulate');
    const steps = planSteps(schema, liveMap(schema.tables), input(schema, { records: new Map() }));
    expect(new Set(steps.map((s) => `${s.action}:${s.class}`))).toEqual(new Set(['record-ttl:additive']));
    const records = new Map(input(schema).records);
    records.set('visits', { seconds: 3600, countsFrom: 'last-write' });
    const anchored = planSteps(schema, liveMap(schema.tables), input(schema, { records }));
    expect(anchored.map((s) => [s.collection, s.action, s.summary])).toEqual([
      [
        'visits',
        'set-ttl',
        'TTL of visits: 3600s after each write → 3600s after lastSeenAt (emulated: lifespan stamps the new TTL on every write)',
      ],
    ]);
  });
});

describe('hot-path statements (built once per entity and shape)', () => {
  const dialects: RelationalDialect[] = ['sqlite', 'postgres', 'mariadb'];
  test.each(dialects)('%s', (dialect) => {
    const schema = compileSchema(model, dialect, 'emulate');
    const spec = schema.tables.find((t) => t.entity === 'Session') as TableSpec;
    const t = new TableSql(dialect, spec, 'createdAt');
    const texts = {
      get: selectByKey(t, 'db').sql,
      getClock: selectByKey(t, 'param').sql,
      getMany4: selectByKeys(t, 'db', 4).sql,
      find: findWhere(t, 'db', [{ column: 'payload', isNull: false }], true).sql,
      insert: insertRow(t, 'db', 'nowPlus').sql,
      upsertKeep: upsertRow(t, 'db', 'nowPlus', 'keep').sql,
      upsertExtend: upsertRow(t, 'param', 'value', 'extend').sql,
      setTtlExtend: setExpiry(t, 'db', 'extendNowPlus', 'expires_at', null).sql,
      purgeBatch: firstPurgeBatch(t, 'db', 'expires_at', 500).sql,
    };
    expect(texts).toMatchSnapshot();
    // positional parameters are bound in text order; PostgreSQL reuses $n for the same source
    const upsert = upsertRow(t, 'param', 'value', 'keep');
    const marks = (upsert.sql.match(dialect === 'postgres' ? /\$\d+/g : /\?/g) ?? []).length;
    expect(dialect === 'postgres' ? new Set(upsert.sql.match(/\$\d+/g)).size : marks).toBe(upsert.slots.length);
  });
});
