/**
 * Schema against the real node: tables compiled from the model, default_time_to_live set and
 * changed in place, conflicts refused, ensureCollections idempotent and safe when run concurrently.
 */
import 'reflect-metadata';
import type { Client } from 'cassandra-driver';
import {
  Entity,
  ErrorCodes,
  Field,
  Key,
  LifespanError,
  StoreError,
  TimeToLive,
  PartitionKey,
  ClusteringKey,
} from '../../src';
import { Session, Reading, CacheEntry, AuditLog } from '../../examples/models';
import { cassandraClient } from '../harness/cassandra';
import { describeStore } from '../harness/stores';
import { build, cellTtl, liveDefaultTtl, open, useTestKeyspace } from './fixtures';

describeStore('cassandra', 'cassandra schema (live)', () => {
  let client: Client;
  let keyspace: string;

  useTestKeyspace('ls_schema', (live) => ({ client, keyspace } = live));

  it('creates every table with the model TTL as default_time_to_live, and a second run does nothing', async () => {
    const model = build((b) => b.entity(Session).entity(Reading).entity(CacheEntry).entity(AuditLog));
    const db = await open(client, keyspace, model);
    const first = await db.ensureCollections();
    expect(first.applied.map((s) => s.action)).toEqual([
      'create-table',
      'create-table',
      'create-table',
      'create-table',
    ]);
    for (const entity of model.entities) {
      expect(await liveDefaultTtl(client, keyspace, entity.collection)).toBe(entity.ttl?.seconds ?? 0);
    }
    const columns = await client.execute(
      'SELECT table_name, column_name, kind, position, clustering_order, type FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?',
      [keyspace, 'readings'],
      { prepare: true },
    );
    const shape = columns.rows
      .map((r) => `${r['column_name']}:${r['type']}:${r['kind']}:${r['clustering_order']}`)
      .sort();
    expect(shape).toEqual([
      'createdAt:timestamp:regular:none',
      'sensorId:text:partition_key:none',
      'takenAt:timestamp:clustering:desc',
      'value:double:regular:none',
    ]);
    // explain() shows the statements ensureCollections() ran.
    expect(db.explain().entries.map((e) => e.materializedBy.commands[0])).toEqual(first.applied.map((s) => s.command));
    const second = await db.ensureCollections();
    expect(second.applied).toEqual([]);
    expect((await db.plan()).steps).toEqual([]);
  });

  it('is safe when several processes ensure the same tables at once', async () => {
    @Entity('concurrent_things')
    @TimeToLive('2h')
    class Thing {
      @Key() id = '';
      @Field() a = '';
      @Field() b = 0;
    }
    const model = build((b) => b.entity(Thing));
    const clients = [client, await cassandraClient(), await cassandraClient()];
    try {
      const contexts = await Promise.all(clients.map((c) => open(c, keyspace, model)));
      const results = await Promise.all(contexts.map((db) => db.ensureCollections()));
      expect(results.flatMap((r) => r.applied).every((s) => s.action === 'create-table')).toBe(true);
      expect(await liveDefaultTtl(client, keyspace, 'concurrent_things')).toBe(7200);
      // A newer model version adds a column: every process adds it or finds it added.
      @Entity('concurrent_things')
      @TimeToLive('2h')
      class Thing2 {
        @Key() id = '';
        @Field() a = '';
        @Field() b = 0;
        @Field() c = false;
      }
      const v2 = build((b) => b.entity(Thing2));
      const contexts2 = await Promise.all(clients.map((c) => open(c, keyspace, v2)));
      const added = await Promise.all(contexts2.map((db) => db.ensureCollections()));
      const adds = added.flatMap((r) => r.applied).filter((s) => s.action === 'add-column');
      expect(adds.length).toBeGreaterThanOrEqual(1);
      expect((await contexts2[0]!.plan()).steps).toEqual([]);
    } finally {
      await Promise.all(clients.slice(1).map((c) => c.shutdown()));
    }
  });

  it('plans a TTL change as one in-place ALTER that leaves rows written earlier with their old TTL', async () => {
    @Entity('alter_sessions')
    @TimeToLive(3600)
    class V1 {
      @Key() id = '';
      @Field() payload = '';
    }
    @Entity('alter_sessions')
    @TimeToLive(7200)
    class V2 {
      @Key() id = '';
      @Field() payload = '';
    }
    @Entity('alter_sessions')
    class V3 {
      @Key() id = '';
      @Field() payload = '';
    }
    const db1 = await open(
      client,
      keyspace,
      build((b) => b.entity(V1)),
    );
    await db1.ensureCollections();
    await db1.repository(V1).upsert(Object.assign(new V1(), { id: 'old', payload: 'x' }));

    const db2 = await open(
      client,
      keyspace,
      build((b) => b.entity(V2)),
    );
    const plan = await db2.plan({ counts: true });
    expect(plan.steps).toHaveLength(1);
    const step = plan.steps[0]!;
    expect(step).toMatchObject({
      action: 'set-default-ttl',
      class: 'in-place',
      ttl: { from: 3600, to: 7200 },
      command: `ALTER TABLE "${keyspace}"."alter_sessions" WITH default_time_to_live = 7200`,
      effect: { kind: 'new-writes-only', affected: 0, verified: true },
    });
    expect(step.effect?.text).toContain('affects new writes only');
    expect(step.effect?.text).toContain('the 1 existing row(s) keep the expiry stamped when they were written');
    await db2.apply(plan);
    expect(await liveDefaultTtl(client, keyspace, 'alter_sessions')).toBe(7200);
    await db2.repository(V2).upsert(Object.assign(new V2(), { id: 'new', payload: 'y' }));

    const oldTtl = await cellTtl(client, keyspace, 'alter_sessions', 'id', 'old', 'payload');
    const newTtl = await cellTtl(client, keyspace, 'alter_sessions', 'id', 'new', 'payload');
    expect(oldTtl).toBeGreaterThan(3500);
    expect(oldTtl).toBeLessThanOrEqual(3600);
    expect(newTtl).toBeGreaterThan(7100);
    expect(newTtl).toBeLessThanOrEqual(7200);
    // Read a moment later, TTL() may have crossed a second boundary.
    const reported = await db2.repository(V2).ttl('old');
    expect(reported).toBeLessThanOrEqual(oldTtl!);
    expect(reported).toBeGreaterThanOrEqual(oldTtl! - 1);

    // Removing the TTL plans default_time_to_live = 0; the stored rows keep theirs.
    const db3 = await open(
      client,
      keyspace,
      build((b) => b.entity(V3)),
    );
    const removal = await db3.plan();
    expect(removal.steps.map((s) => [s.action, s.class, s.command, s.ttl])).toEqual([
      [
        'remove-default-ttl',
        'in-place',
        `ALTER TABLE "${keyspace}"."alter_sessions" WITH default_time_to_live = 0`,
        { from: 7200, to: null },
      ],
    ]);
    expect(removal.steps[0]!.effect?.text).toContain('affects new writes only');
    await db3.ensureCollections();
    expect(await liveDefaultTtl(client, keyspace, 'alter_sessions')).toBe(0);
    expect(await cellTtl(client, keyspace, 'alter_sessions', 'id', 'new', 'payload')).toBeGreaterThan(7100);
    await db3.repository(V3).upsert(Object.assign(new V3(), { id: 'newest', payload: 'z' }));
    expect(await db3.repository(V3).ttl('newest')).toBeNull();
  });

  it('reports key and type changes as conflicts and never drops anything unless allowed', async () => {
    @Entity('shapes')
    class Before {
      @Key() id = '';
      @Field() size = 0;
    }
    @Entity('shapes')
    class KeyChanged {
      @PartitionKey() id = '';
      @ClusteringKey('desc') @Field({ type: 'date' }) at = new Date(0);
      @Field() size = 0;
    }
    @Entity('shapes')
    class TypeChanged {
      @Key() id = '';
      @Field() size = '';
    }
    const before = await open(
      client,
      keyspace,
      build((b) => b.entity(Before)),
    );
    await before.ensureCollections();
    await before.repository(Before).upsert(Object.assign(new Before(), { id: 'a', size: 1 }));

    const keyDb = await open(
      client,
      keyspace,
      build((b) => b.entity(KeyChanged)),
    );
    const keyPlan = await keyDb.plan();
    expect(keyPlan.steps.map((s) => [s.action, s.class])).toEqual([['change-primary-key', 'conflict']]);
    expect(keyPlan.steps[0]!.summary).toContain('cannot change a primary key in place');
    await expect(keyDb.apply(keyPlan)).rejects.toMatchObject({ code: ErrorCodes.PLAN_CONFLICT });
    const unlabelled = { ...keyPlan, steps: keyPlan.steps.map((s) => ({ ...s, class: 'in-place' as const })) };
    await expect(keyDb.apply(unlabelled)).rejects.toMatchObject({ code: ErrorCodes.PLAN_CONFLICT });
    await expect(keyDb.ensureCollections()).rejects.toThrow(LifespanError);

    const typeDb = await open(
      client,
      keyspace,
      build((b) => b.entity(TypeChanged)),
    );
    const typePlan = await typeDb.plan();
    expect(typePlan.steps.map((s) => [s.action, s.class])).toEqual([['change-column-type', 'conflict']]);
    await expect(typeDb.ensureCollections()).rejects.toMatchObject({ code: ErrorCodes.PLAN_CONFLICT });
    expect(await before.repository(Before).get('a')).toMatchObject({ size: 1 });

    const destructive = await typeDb.plan({ allowDestructive: true, counts: true });
    expect(destructive.steps.map((s) => [s.action, s.class])).toEqual([['recreate-table', 'destructive']]);
    expect(destructive.steps[0]!.effect?.text).toContain('(1 row(s) stored)');
    await expect(typeDb.apply(destructive)).rejects.toMatchObject({ code: ErrorCodes.PLAN_DESTRUCTIVE_NOT_ALLOWED });
    // A plan is plain data: relabelling the drop-and-recreate step does not make it safe to run.
    const relabelled = { ...destructive, steps: destructive.steps.map((s) => ({ ...s, class: 'in-place' as const })) };
    await expect(typeDb.apply(relabelled)).rejects.toMatchObject({ code: ErrorCodes.PLAN_DESTRUCTIVE_NOT_ALLOWED });
    const smuggled = {
      ...typePlan,
      steps: typePlan.steps.map((s) => ({
        ...s,
        class: 'additive' as const,
        payload: {
          ...(s.payload as object),
          op: 'add-column',
          statements: (destructive.steps[0]!.payload as { statements: string[] }).statements,
        },
      })),
    };
    await expect(typeDb.apply(smuggled, { allowDestructive: true })).rejects.toMatchObject({
      code: 'PLAN_BAD_STEP',
    });
    expect(await before.repository(Before).exists('a')).toBe(true);
    await typeDb.apply(destructive, { allowDestructive: true });
    expect((await typeDb.plan()).steps).toEqual([]);
    expect(await typeDb.repository(TypeChanged).exists('a')).toBe(false);
  });

  it('adds a missing column in place and leaves extra live columns alone', async () => {
    @Entity('grow')
    class Small {
      @Key() id = '';
      @Field() a = '';
      @Field() gone = '';
    }
    @Entity('grow')
    class Big {
      @Key() id = '';
      @Field() a = '';
      @Field({ type: 'string', nullable: true }) b: string | null = null;
    }
    await (
      await open(
        client,
        keyspace,
        build((b) => b.entity(Small)),
      )
    ).ensureCollections();
    const db = await open(
      client,
      keyspace,
      build((b) => b.entity(Big)),
    );
    const plan = await db.plan();
    expect(plan.steps.map((s) => [s.action, s.class, s.command])).toEqual([
      ['add-column', 'additive', `ALTER TABLE "${keyspace}"."grow" ADD "b" text`],
    ]);
    await db.apply(plan);
    expect((await db.plan()).steps).toEqual([]);
  });

  it('says when the keyspace does not exist', async () => {
    const db = await open(
      client,
      'no_such_keyspace_here',
      build((b) => b.entity(AuditLog)),
    );
    const error = await db.ensureCollections().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'STORE_DATABASE_MISSING' });
  });
});
