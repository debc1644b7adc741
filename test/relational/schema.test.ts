/**
 * Compile → inspect → plan → apply against every engine: ensureCollections() is additive and
 * idempotent (also from two connections at once), emulation on adds expires_at and its index,
 * emulation off never drops them unless a destructive step is allowed, conflicts are reported.
 */
import type { Knex } from 'knex';
import { ModelBuilder, ModelError, Entity, Key, Field, TimeToLive, type Model } from '../../src';
import { knexFor } from '../harness/relational';
import {
  connectRelational,
  describeEngines,
  dropTables,
  prefixFor,
  sharedDatabase,
  TestClock,
} from './support/engines';
import { Session, Token, make, testModel, testModelWith } from './support/models';

async function columnsOf(knex: Knex, table: string): Promise<string[]> {
  return Object.keys(await knex(table).columnInfo()).map((c) => c.toLowerCase());
}

describeEngines('relational schema', (engine) => {
  const prefix = prefixFor('schema');
  const model = testModel(prefix);
  let knex: Knex;

  beforeAll(async () => {
    knex = knexFor(engine);
    await dropTables(knex, model);
  });

  afterAll(async () => {
    await dropTables(knex, model);
    await knex?.destroy();
  });

  test('ensureCollections creates every table once; a second run changes nothing', async () => {
    const db = await connectRelational(model, knex, { ttl: 'emulate' });
    const first = await db.ensureCollections();
    expect(first.applied.map((s) => s.action)).toEqual(model.entities.map(() => 'create-table'));
    expect((await db.ensureCollections()).applied).toEqual([]);
    expect((await db.plan()).steps).toEqual([]);
    expect(await columnsOf(knex, `${prefix}_sessions`)).toEqual(['id', 'createdat', 'payload', 'expires_at']);
    await db.close();
  });

  test('ignore mode: no expiry column, and one warning per TTL entity on each ensureCollections', async () => {
    await dropTables(knex, model);
    const warnings: string[] = [];
    const db = await connectRelational(model, knex, { ttl: 'ignore', logger: { warn: (m) => warnings.push(m) } });
    await db.ensureCollections();
    expect(await columnsOf(knex, `${prefix}_sessions`)).toEqual(['id', 'createdat', 'payload']);
    const ttlEntities = model.entities.filter((e) => e.ttl).map((e) => e.name);
    expect(warnings).toHaveLength(ttlEntities.length);
    for (const name of ttlEntities) {
      expect(warnings.some((w) => w.includes(name) && w.includes('schedule deletes yourself'))).toBe(true);
    }
    const repo = db.repository(Session);
    await repo.insert(make(Session, { id: 'old', payload: 'kept' }));
    expect(await repo.ttl('old')).toBeNull();
    await expect(repo.insert(make(Session, { id: 'x' }), { ttl: 60 })).rejects.toMatchObject({
      code: 'TTL_PER_WRITE_UNSUPPORTED',
    });
    await expect(repo.setTtl('old', 60)).rejects.toMatchObject({ code: 'TTL_PER_WRITE_UNSUPPORTED' });
    expect(await repo.setTtl('old', 'never')).toBe(true);
    await db.close();
  });

  test('turning emulation on adds expires_at and its index (additive); old rows never expire', async () => {
    // two hours behind the database clock: what expires here is already due for the database
    const clock = new TestClock(Date.now() - 2 * 3600 * 1000);
    const db = await connectRelational(model, knex, { ttl: 'emulate', clock: clock.read });
    const plan = await db.plan({ counts: true });
    const sessionSteps = plan.steps.filter((s) => s.collection === `${prefix}_sessions`);
    expect(sessionSteps.map((s) => [s.action, s.class])).toEqual([
      ['add-expiry-column', 'additive'],
      ['create-expiry-index', 'additive'],
    ]);
    expect(sessionSteps[0]?.effect).toMatchObject({ kind: 'new-writes-only', affected: 0 });
    expect(sessionSteps[0]?.ttl).toEqual({ from: null, to: 3600 });
    const applied = await db.ensureCollections();
    expect(applied.applied.length).toBe(plan.steps.length);
    expect((await db.plan()).steps).toEqual([]);
    const repo = db.repository(Session);
    expect(await repo.ttl('old')).toBeNull();
    await repo.insert(make(Session, { id: 'new', payload: 'p' }));
    expect(await repo.ttl('new')).toBe(3600);
    clock.advance(3600);
    expect(await repo.exists('new')).toBe(false);
    await db.close();
  });

  test('turning emulation off keeps expires_at unless a destructive step is allowed', async () => {
    const warnings: string[] = [];
    const db = await connectRelational(model, knex, { ttl: 'ignore', logger: { warn: (m) => warnings.push(m) } });
    const plan = await db.plan({ counts: true });
    const keep = plan.steps.find((s) => s.collection === `${prefix}_sessions`);
    expect(keep).toMatchObject({
      action: 'keep-expiry-column',
      class: 'conflict',
      blocking: false,
      effect: { kind: 'retroactive' },
    });
    // the due rows are read again (issue 25): the plan needs allowUnexpiry; then the non-blocking
    // conflict runs nothing, and the column stays
    expect(keep?.effect).toMatchObject({ unexpires: true, unexpired: 1 });
    await expect(db.apply(plan)).rejects.toMatchObject({ code: 'PLAN_UNEXPIRY_NOT_ALLOWED' });
    expect((await db.apply(plan, { allowUnexpiry: true })).applied).toEqual([]);
    expect(keep?.effect?.affected).toBe(1); // the expired row 'new' becomes visible again
    expect((await db.ensureCollections()).applied).toEqual([]);
    expect(warnings.some((w) => w.includes('expires_at is kept'))).toBe(true);
    expect(await columnsOf(knex, `${prefix}_sessions`)).toContain('expires_at');
    expect(await db.repository(Session).exists('new')).toBe(true);

    const destructive = await db.plan({ allowDestructive: true });
    const drop = destructive.steps.find((s) => s.collection === `${prefix}_sessions`);
    expect(drop).toMatchObject({ action: 'drop-expiry-column', class: 'destructive' });
    expect(drop).not.toHaveProperty('blocking');
    await expect(db.apply(destructive)).rejects.toMatchObject({ code: 'PLAN_DESTRUCTIVE_NOT_ALLOWED' });
    // relabelling the step does not make it safe: apply() judges the operation it runs
    const relabelled = {
      ...destructive,
      steps: destructive.steps.map((s) => ({ ...s, class: 'additive' as const })),
    };
    await expect(db.apply(relabelled)).rejects.toMatchObject({ code: 'PLAN_DESTRUCTIVE_NOT_ALLOWED' });
    const disguised = {
      ...destructive,
      steps: destructive.steps.map((s) => ({
        ...s,
        class: 'additive' as const,
        payload: { ...(s.payload as object), op: 'add-column' },
      })),
    };
    await expect(db.apply(disguised, { allowDestructive: true })).rejects.toMatchObject({ code: 'PLAN_BAD_STEP' });
    const foreign = { ...destructive, steps: destructive.steps.map((s) => ({ ...s, payload: { sql: ['SELECT 1'] } })) };
    await expect(db.apply(foreign)).rejects.toMatchObject({ code: 'PLAN_BAD_STEP' });
    expect(await columnsOf(knex, `${prefix}_sessions`)).toContain('expires_at');
    await expect(db.apply(destructive, { allowDestructive: true })).rejects.toMatchObject({
      code: 'PLAN_UNEXPIRY_NOT_ALLOWED',
    });
    await db.apply(destructive, { allowDestructive: true, allowUnexpiry: true });
    expect(await columnsOf(knex, `${prefix}_sessions`)).not.toContain('expires_at');
    expect((await db.plan()).steps).toEqual([]);
    await db.close();
  });

  test('a TTL change is one in-place step: new writes only, stored rows keep their expiry', async () => {
    const clock = new TestClock();
    const before = await connectRelational(model, knex, { ttl: 'emulate', clock: clock.read });
    await before.ensureCollections();
    await before.repository(Token).upsert(make(Token, { id: 'kept', owner: 'o' }));
    expect(await before.repository(Token).ttl('kept')).toBe(10);

    const longer = testModelWith(prefix, (b) => b.entity(Token, (e) => e.timeToLive(20)));
    const after = await connectRelational(longer, knex, { ttl: 'emulate', clock: clock.read });
    const plan = await after.plan({ counts: true });
    expect(plan.steps.map((s) => [s.collection, s.action, s.class])).toEqual([
      [`${prefix}_tokens`, 'set-ttl', 'in-place'],
    ]);
    expect(plan.steps[0]).toMatchObject({
      ttl: { from: 10, to: 20 },
      effect: { kind: 'new-writes-only', affected: 0 },
    });
    expect((await after.ensureCollections()).applied.map((s) => s.action)).toEqual(['set-ttl']);
    expect((await after.plan()).steps).toEqual([]);
    expect(await after.repository(Token).ttl('kept')).toBe(10);
    await after.repository(Token).upsert(make(Token, { id: 'fresh', owner: 'o' }));
    expect(await after.repository(Token).ttl('fresh')).toBe(20);
    // and back: the old model plans the reverse change
    expect((await before.plan()).steps.map((s) => s.ttl)).toEqual([{ from: 20, to: 10 }]);
    // a shortening over stored rows needs no review here: stamped expiry, no stored row expires sooner
    expect((await before.ensureCollections()).applied.map((s) => s.action)).toEqual(['set-ttl']);
    expect(await before.repository(Token).ttl('fresh')).toBe(20);
    await Promise.all([before.close(), after.close()]);
  });

  test('a new nullable member is added; a changed column type is a conflict ensureCollections refuses', async () => {
    @Entity(`${prefix}_drift`)
    class Drift {
      @Key() id = '';
      @Field() size = 0;
    }
    @Entity(`${prefix}_drift`)
    class DriftV2 {
      @Key() id = '';
      @Field() size = 0;
      @Field({ type: 'string', nullable: true }) label: string | null = null;
    }
    @Entity(`${prefix}_drift`)
    class DriftV3 {
      @Key() id = '';
      @Field() size = '';
    }
    const v1 = new ModelBuilder().entity(Drift).build();
    await (await connectRelational(v1, knex)).ensureCollections();
    const v2db = await connectRelational(new ModelBuilder().entity(DriftV2).build(), knex);
    const plan = await v2db.plan();
    expect(plan.steps.map((s) => [s.action, s.class])).toEqual([['add-column', 'additive']]);
    await v2db.ensureCollections();
    await v2db.repository(DriftV2).insert(make(DriftV2, { id: 'd', size: 2, label: 'l' }));
    expect((await v2db.repository(DriftV2).get('d'))?.label).toBe('l');

    const v3db = await connectRelational(new ModelBuilder().entity(DriftV3).build(), knex);
    expect((await v3db.plan()).steps.map((s) => [s.action, s.class])).toEqual([['column-type', 'conflict']]);
    await expect(v3db.ensureCollections()).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
    await expect(v3db.ensureCollections({ allowRetroactive: true })).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
    const conflicting = await v3db.plan();
    expect(conflicting.steps[0]).toMatchObject({ blocking: true });
    await expect(v3db.apply(conflicting)).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
    // a blocking conflict relabelled as additive is still one
    const relabelled = {
      ...conflicting,
      steps: conflicting.steps.map((s) => ({ ...s, class: 'additive' as const, blocking: false })),
    };
    await expect(v3db.apply(relabelled)).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
    await knex.schema.dropTableIfExists(`${prefix}_drift`);
  });

  test('reject mode: connect fails naming every TTL entity', async () => {
    const error = await connectRelational(model, knex, { ttl: 'reject' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    const named = (error as ModelError).problems.map((p) => p.entity);
    expect(named).toEqual(model.entities.filter((e) => e.ttl).map((e) => e.name));
    expect((error as ModelError).problems.every((p) => p.code === 'RELATIONAL_TTL_REJECTED')).toBe(true);
    const noTtl = model.entities.filter((e) => !e.ttl).map((e) => e.target);
    const builder = new ModelBuilder();
    for (const target of noTtl) builder.entity(target, (e) => e.toCollection(`${prefix}_r${target.name}`));
    const db = await connectRelational(builder.build(), knex, { ttl: 'reject' });
    expect(db.explain().entries.every((e) => e.mechanism === 'none')).toBe(true);
    await db.close();
  });
});

describeEngines('relational ensureCollections from two connections at once', (engine) => {
  const model = testModel(prefixFor('concurrent'));

  test('both succeed, and the tables are created once', async () => {
    const shared = sharedDatabase(engine);
    const a = shared.open();
    const b = shared.open();
    try {
      await dropTables(a, model);
      const [dbA, dbB] = await Promise.all([
        connectRelational(model, a, { ttl: 'emulate' }),
        connectRelational(model, b, { ttl: 'emulate' }),
      ]);
      const [ra, rb] = await Promise.all([dbA!.ensureCollections(), dbB!.ensureCollections()]);
      expect(ra.applied.length + rb.applied.length).toBe(model.entities.length);
      expect((await dbA!.plan()).steps).toEqual([]);
      await dbA!.repository(Token).insert(make(Token, { id: 'c', owner: 'o' }));
      expect(await dbB!.repository(Token).ttl('c')).toBe(10);
      await Promise.all([dbA!.close(), dbB!.close()]);
      await dropTables(a, model);
    } finally {
      await a.destroy();
      await b.destroy();
      shared.cleanup();
    }
  });
});

describeEngines('relational model checks', (engine) => {
  test('a member stored as expires_at clashes with emulation only', async () => {
    @Entity('clash')
    @TimeToLive(60)
    class Clash {
      @Key() id = '';
      @Field({ name: 'expires_at', type: 'date' }) until = new Date(0);
    }
    const model: Model = new ModelBuilder().entity(Clash).build();
    const knex = knexFor(engine);
    try {
      await expect(connectRelational(model, knex, { ttl: 'emulate' })).rejects.toMatchObject({
        code: 'RELATIONAL_EXPIRY_COLUMN_TAKEN',
      });
      await (await connectRelational(model, knex, { ttl: 'ignore' })).close();
    } finally {
      await knex.destroy();
    }
  });
});
