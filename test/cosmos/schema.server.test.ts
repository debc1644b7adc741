/**
 * Containers against the in-process Cosmos server: what ensureCollections(), plan() and apply()
 * create and change, read back with container.read(). The server stores defaultTtl but never
 * expires anything, so these tests check configuration only.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { connect, Entity, Key, LifespanError, ModelBuilder, TimeToLive } from '../../src';
import type { Model } from '../../src';
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

const modelOf = (cls: new () => unknown): Model => new ModelBuilder().entity(cls).build();
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
    expect((await db.apply(plan)).applied).toHaveLength(1);

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
    await off.apply(plan);
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
    await expect(db.apply(plan, { allowDestructive: true })).rejects.toMatchObject({ code: 'COSMOS_PLAN_CONFLICT' });
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
    await expect(db.apply(plan)).rejects.toMatchObject({ code: 'COSMOS_PLAN_STALE' });
    expect((await definition(database, 'sessions'))?.defaultTtl).toBe(120);
  });

  it('plan({ counts: true }) counts the items a shorter TTL expires at once, by _ts against the client clock', async () => {
    const database = await fixture.freshDatabase();
    const { container } = await database.containers.create({
      id: 'sessions',
      partitionKey: { paths: ['/id'] },
      defaultTtl: 3600,
    });
    for (const id of ['a', 'b', 'c']) await container.items.create({ id });
    await container.items.create({ id: 'own', ttl: 5000 });
    // The server stamps _ts itself; wait until these items are more than 1 s old.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await container.items.create({ id: 'fresh' });

    const db = await connect(
      new ModelBuilder().entity(Session60, (e) => e.timeToLive(1)).build(),
      new CosmosStore({ database }),
    );
    const plan = await db.plan({ counts: true });
    expect(plan.steps[0]?.effect).toMatchObject({ kind: 'retroactive', affected: 3, verified: false });
    expect(plan.steps[0]?.effect?.text).toContain('counted with the client clock');
    // Without counts nothing is queried or claimed.
    expect((await db.plan()).steps[0]?.effect?.affected).toBeUndefined();
  });
});
