/**
 * Containers against the in-process Cosmos server: what ensureCollections(), plan() and apply()
 * create and change, read back with container.read(). The server stores defaultTtl but never
 * expires anything, so these tests check configuration only.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { connect, Entity, Field, Key, LifespanError, ModelBuilder, TimeToLive } from '../../src';
import type { MigrationPlan, Model, PlanStep } from '../../src';
import { CosmosStore } from '../../src/providers/cosmos';
import { model as examples } from '../../examples/models';
import { describeStore } from '../harness/stores';
import { localCosmos } from './fixtures';

@Entity('sessions')
@TimeToLive(3600)
class Session3600 {
  @Key() id = '';
}
@Entity('sessions')
@TimeToLive(60)
class Session60 {
  @Key() id = '';
}
@Entity('sessions')
class SessionNoTtl {
  @Key() id = '';
}

@Entity('notes')
class Note {
  @Key() id = '';
  @Field() text = '';
}

const modelOf = (cls: new () => unknown): Model => new ModelBuilder().entity(cls).build();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOUR_MS = 3_600_000;
const definition = async (database: Database, id: string) => (await database.container(id).read()).resource;

describeStore('cosmos', 'cosmos containers (in-process server)', () => {
  const fixture = localCosmos();

  it('ensureCollections() creates every container with the model defaultTtl and partition key', async () => {
    const database = await fixture.freshDatabase();
    const db = await connect(examples, new CosmosStore({ database }));
    const result = await db.ensureCollections();
    expect(result.applied.map((s) => s.action)).toEqual(Array(6).fill('create-container'));
    expect((await definition(database, 'sessions'))?.defaultTtl).toBe(3600);
    expect((await definition(database, 'carts'))?.defaultTtl).toBe(604800);
    expect((await definition(database, 'cache_entries'))?.defaultTtl).toBe(-1);
    expect(await definition(database, 'audit_log')).not.toHaveProperty('defaultTtl');
    expect((await definition(database, 'readings'))?.partitionKey?.paths).toEqual(['/sensorId']);
    expect((await definition(database, 'sessions'))?.partitionKey?.paths).toEqual(['/id']);
  });

  it('ensureCollections() twice changes nothing the second time', async () => {
    const database = await fixture.freshDatabase();
    const db = await connect(examples, new CosmosStore({ database }));
    await db.ensureCollections();
    const before = await definition(database, 'sessions');
    expect((await db.ensureCollections()).applied).toEqual([]);
    expect((await db.plan()).steps).toEqual([]);
    expect((await definition(database, 'sessions'))?._etag).toBe(before?._etag);
  });

  it('ensureCollections() from several sessions at once is safe', async () => {
    const database = await fixture.freshDatabase();
    const sessions = await Promise.all([1, 2, 3, 4].map(() => connect(examples, new CosmosStore({ database }))));
    const results = await Promise.all(sessions.map((db) => db.ensureCollections()));
    // Every container was created exactly once, whoever won each race.
    const created = results.flatMap((r) => r.applied.map((s) => s.collection)).sort();
    expect(created).toEqual(['audit_log', 'cache_entries', 'carts', 'readings', 'sessions', 'visits']);
    expect((await definition(database, 'sessions'))?.defaultTtl).toBe(3600);
    expect((await sessions[0]?.plan())?.steps).toEqual([]);
  });

  it('a TTL change via plan/apply is one in-place replace that keeps partition key and indexing policy', async () => {
    const database = await fixture.freshDatabase();
    const indexingPolicy = {
      indexingMode: 'consistent' as const,
      automatic: true,
      includedPaths: [{ path: '/payload/?' }],
      excludedPaths: [{ path: '/*' }],
    };
    await database.containers.create({
      id: 'sessions',
      partitionKey: { paths: ['/id'] },
      defaultTtl: 3600,
      indexingPolicy,
    });
    const db = await connect(modelOf(Session60), new CosmosStore({ database }));

    const plan = await db.plan();
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]).toMatchObject({ action: 'set-default-ttl', class: 'in-place', ttl: { from: 3600, to: 60 } });
    expect((await db.apply(plan, { allowRetroactive: true })).applied).toHaveLength(1);

    const after = await definition(database, 'sessions');
    expect(after?.defaultTtl).toBe(60);
    expect(after?.partitionKey?.paths).toEqual(['/id']);
    expect(after?.indexingPolicy).toEqual(indexingPolicy);
    expect((await db.plan()).steps).toEqual([]);
  });

  it('turning TTL off is a replace that removes defaultTtl; turning it on sets it again', async () => {
    const database = await fixture.freshDatabase();
    await database.containers.create({ id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 3600 });
    const off = await connect(modelOf(SessionNoTtl), new CosmosStore({ database }));
    const plan = await off.plan();
    expect(plan.steps.map((s) => s.action)).toEqual(['remove-default-ttl']);
    expect(plan.steps[0]?.summary).toContain('item ttl values stop applying');
    // TTL turned off brings back every expired item not yet deleted (issue 25): its own consent.
    await expect(off.apply(plan)).rejects.toMatchObject({ code: 'PLAN_UNEXPIRY_NOT_ALLOWED' });
    await off.apply(plan, { allowUnexpiry: true });
    const read = await definition(database, 'sessions');
    expect(read).not.toHaveProperty('defaultTtl');
    expect(read?.partitionKey?.paths).toEqual(['/id']);

    const on = await connect(modelOf(Session3600), new CosmosStore({ database }));
    expect((await on.ensureCollections()).applied.map((s) => s.action)).toEqual(['set-default-ttl']);
    expect((await definition(database, 'sessions'))?.defaultTtl).toBe(3600);
  });

  it('a partition key change is a conflict: apply() refuses the plan and the container stays as it was', async () => {
    const database = await fixture.freshDatabase();
    await database.containers.create({ id: 'sessions', partitionKey: { paths: ['/tenant'] }, defaultTtl: 60 });
    const db = await connect(modelOf(Session3600), new CosmosStore({ database }));
    const plan = await db.plan({ allowDestructive: true });
    expect(plan.steps.map((s) => [s.action, s.class])).toEqual([
      ['partition-key-conflict', 'conflict'],
      ['set-default-ttl', 'in-place'],
    ]);
    await expect(db.apply(plan, { allowDestructive: true })).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
    await expect(db.ensureCollections()).rejects.toThrow(LifespanError);
    const read = await definition(database, 'sessions');
    expect(read?.partitionKey?.paths).toEqual(['/tenant']);
    expect(read?.defaultTtl).toBe(60);
  });

  it('apply() refuses a stale plan instead of overwriting a change made since', async () => {
    const database = await fixture.freshDatabase();
    await database.containers.create({ id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 3600 });
    const db = await connect(modelOf(Session60), new CosmosStore({ database }));
    const plan = await db.plan();
    await database.container('sessions').replace({ id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 120 });
    await expect(db.apply(plan, { allowRetroactive: true })).rejects.toMatchObject({ code: 'COSMOS_PLAN_STALE' });
    expect((await definition(database, 'sessions'))?.defaultTtl).toBe(120);
  });

  it('plan({ counts: true }) counts the items a shorter TTL expires at once, by _ts against the server clock', async () => {
    const database = await fixture.freshDatabase();
    const { container } = await database.containers.create({
      id: 'sessions',
      partitionKey: { paths: ['/id'] },
      defaultTtl: 3600,
    });
    for (const id of ['a', 'b', 'c']) await container.items.create({ id });
    await container.items.create({ id: 'own', ttl: 5000 });
    // The server stamps _ts itself (whole seconds); wait until these items are more than 3 s old,
    // leaving 'fresh' a margin of 2 s or more for a slow (loaded) machine to reach the count.
    await sleep(4100);
    await container.items.create({ id: 'fresh' });

    // This client's clock runs an hour behind the server (the in-process server stamps its Date
    // header with the real clock; nothing is written while the clock is skewed).
    const realNow = Date.now.bind(Date);
    const skew = jest.spyOn(Date, 'now').mockImplementation(() => realNow() - HOUR_MS);
    try {
      const db = await connect(
        new ModelBuilder().entity(Session60, (e) => e.timeToLive(3)).build(),
        new CosmosStore({ database }),
      );
      const plan = await db.plan({ counts: true });
      expect(plan.steps[0]?.effect).toMatchObject({ kind: 'retroactive', affected: 3, verified: false });
      expect(plan.steps[0]?.effect?.text).toContain('counted with the server clock');
      const counted = /now = (.*)\)$/.exec(plan.steps[0]?.effect?.text ?? '')?.[1] ?? '';
      expect(Math.abs(Date.parse(counted) - realNow())).toBeLessThan(5000);
      // Without counts nothing is queried or claimed.
      expect((await db.plan()).steps[0]?.effect?.affected).toBeUndefined();
    } finally {
      skew.mockRestore();
    }
  });

  describe('ensureCollections() never makes stored items expire sooner without review', () => {
    async function populated(database: Database, defaultTtl?: number): Promise<void> {
      const { container } = await database.containers.create({
        id: 'sessions',
        partitionKey: { paths: ['/id'] },
        ...(defaultTtl === undefined ? {} : { defaultTtl }),
      });
      await container.items.create({ id: 'stored' });
    }

    it('refuses to turn TTL on over stored items, names entity, step and the way out, and applies nothing', async () => {
      const database = await fixture.freshDatabase();
      await populated(database);
      const db = await connect(
        new ModelBuilder().entity(Session3600).entity(Note).build(),
        new CosmosStore({ database }),
      );
      const refused = await db.ensureCollections().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LifespanError);
      expect(refused).toMatchObject({ code: 'ENSURE_NEEDS_REVIEW', entity: 'Session3600' });
      expect((refused as Error).message).toContain('turn TTL on with DefaultTimeToLive 3600');
      expect((refused as Error).message).toContain(
        'use plan() + apply() after review, or ensureCollections({ allowRetroactive: true })',
      );
      // Checked before anything ran: the missing container was not created either.
      expect(await definition(database, 'sessions')).not.toHaveProperty('defaultTtl');
      await expect(database.container('notes').read()).rejects.toMatchObject({ code: 404 });

      const applied = await db.ensureCollections({ allowRetroactive: true });
      expect(applied.applied.map((s) => s.action).sort()).toEqual(['create-container', 'set-default-ttl']);
      expect((await definition(database, 'sessions'))?.defaultTtl).toBe(3600);
    });

    it('refuses a shorter DefaultTimeToLive over stored items, and a longer one without allowUnexpiry', async () => {
      const database = await fixture.freshDatabase();
      await populated(database, 3600);
      const shorter = await connect(modelOf(Session60), new CosmosStore({ database }));
      await expect(shorter.ensureCollections()).rejects.toMatchObject({ code: 'ENSURE_NEEDS_REVIEW' });
      expect((await definition(database, 'sessions'))?.defaultTtl).toBe(3600);

      const database2 = await fixture.freshDatabase();
      await populated(database2, 60);
      const longer = await connect(modelOf(Session3600), new CosmosStore({ database: database2 }));
      // A longer default brings back items that expired but are not yet deleted (issue 25): its own consent.
      await expect(longer.ensureCollections()).rejects.toMatchObject({
        code: 'ENSURE_NEEDS_REVIEW',
        hint: expect.stringContaining('allowUnexpiry'),
      });
      expect((await longer.ensureCollections({ allowUnexpiry: true })).applied.map((s) => s.action)).toEqual([
        'set-default-ttl',
      ]);
      expect((await definition(database2, 'sessions'))?.defaultTtl).toBe(3600);
    });

    it('applies a shortening on an empty container (nothing stored can expire)', async () => {
      const database = await fixture.freshDatabase();
      await database.containers.create({ id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 3600 });
      const db = await connect(modelOf(Session60), new CosmosStore({ database }));
      expect((await db.ensureCollections()).applied.map((s) => s.action)).toEqual(['set-default-ttl']);
      expect((await definition(database, 'sessions'))?.defaultTtl).toBe(60);
    });
  });

  describe('apply() runs what the payload says, whatever the labels say', () => {
    it('refuses a conflict relabelled as in-place before any step runs', async () => {
      const database = await fixture.freshDatabase();
      await database.containers.create({ id: 'sessions', partitionKey: { paths: ['/tenant'] }, defaultTtl: 60 });
      const db = await connect(modelOf(Session3600), new CosmosStore({ database }));
      const plan = await db.plan();
      const [conflict, ttl] = plan.steps as [PlanStep, PlanStep];
      // The TTL step first, the conflict relabelled: nothing may run.
      const edited: MigrationPlan = { ...plan, steps: [ttl, { ...conflict, class: 'in-place' }] };
      await expect(db.apply(edited)).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
      expect((await definition(database, 'sessions'))?.defaultTtl).toBe(60);
    });

    it('refuses a payload operation Cosmos plans never hold (a drop), even with allowDestructive', async () => {
      const database = await fixture.freshDatabase();
      const db = await connect(modelOf(Session3600), new CosmosStore({ database }));
      const plan = await db.plan();
      const drop: PlanStep = {
        ...(plan.steps[0] as PlanStep),
        class: 'additive',
        payload: { kind: 'drop-container', container: 'sessions' },
      };
      const edited: MigrationPlan = { ...plan, steps: [...plan.steps, drop] };
      await expect(db.apply(edited, { allowDestructive: true })).rejects.toMatchObject({ code: 'PLAN_BAD_STEP' });
      await expect(database.container('sessions').read()).rejects.toMatchObject({ code: 404 });
    });
  });

  describe('a missing database', () => {
    it('plan() reports it as an additive create-database step and creates nothing; apply() creates it', async () => {
      const client = fixture.cosmos().client;
      const database = client.database(`missing_${process.pid}_a`);
      const db = await connect(modelOf(Session3600), new CosmosStore({ database }));
      const plan = await db.plan({ counts: true });
      expect(plan.steps.map((s) => [s.action, s.class])).toEqual([
        ['create-database', 'additive'],
        ['create-container', 'additive'],
      ]);
      await expect(database.read()).rejects.toMatchObject({ code: 404 });

      expect((await db.apply(plan)).applied).toHaveLength(2);
      expect((await definition(database, 'sessions'))?.defaultTtl).toBe(3600);
      expect((await db.plan()).steps).toEqual([]);
      // Applying the same plan again changes nothing (another process may have run it).
      expect((await db.apply(plan)).applied).toEqual([]);
    });

    it('ensureCollections() creates it', async () => {
      const database = fixture.cosmos().client.database(`missing_${process.pid}_b`);
      const db = await connect(modelOf(Session3600), new CosmosStore({ database }));
      expect((await db.ensureCollections()).applied.map((s) => s.action)).toEqual([
        'create-database',
        'create-container',
      ]);
      expect((await definition(database, 'sessions'))?.defaultTtl).toBe(3600);
    });

    it('apply() refuses a create-database step for another database', async () => {
      const database = fixture.cosmos().client.database(`missing_${process.pid}_c`);
      const db = await connect(modelOf(Session3600), new CosmosStore({ database }));
      const plan = await db.plan();
      const other = {
        ...plan,
        steps: [{ ...(plan.steps[0] as PlanStep), payload: { kind: 'create-database', id: 'x' } }],
      };
      await expect(db.apply(other)).rejects.toMatchObject({ code: 'PLAN_BAD_STEP' });
      await expect(fixture.cosmos().client.database('x').read()).rejects.toMatchObject({ code: 404 });
    });
  });
});
