import { Double, Int32 } from 'mongodb';
import { connect, ModelBuilder, StoreError } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import { model, Session } from './fixtures';
import { RecordingDb, schemaResponder, serverError, type SchemaScript } from './recording-db';

const sessionsOnly = new ModelBuilder().entity(Session).build();

async function session(script: SchemaScript, m = sessionsOnly) {
  const db = new RecordingDb(schemaResponder(script));
  return { db, ctx: await connect(m, new MongoStore({ db })) };
}

const TTL_3600 = { v: 2, key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 3600 };

describe('plan() against the live store: listIndexes in, steps out', () => {
  test('inspects with buildInfo and one listIndexes per collection, and plans every entity', async () => {
    const { db, ctx } = await session({ indexes: {} }, model);
    const plan = await ctx.plan();
    expect(db.commands()).toEqual([
      { buildInfo: 1 },
      { listIndexes: 'sessions' },
      { listIndexes: 'visits' },
      { listIndexes: 'carts' },
      { listIndexes: 'readings' },
      { listIndexes: 'cache_entries' },
      { listIndexes: 'audit_log' },
    ]);
    expect(plan.store).toBe('mongodb');
    expect(plan.target).toBe("mongodb database 'app'");
    expect(plan.steps.filter((s) => s.action === 'create-collection')).toHaveLength(6);
    expect(plan.steps.filter((s) => s.action === 'create-ttl-index').map((s) => s.collection)).toEqual([
      'sessions',
      'visits',
      'carts',
      'readings',
      'cache_entries',
    ]);
  });

  test('listIndexes read-back in sync: an empty plan', async () => {
    const { ctx } = await session({ indexes: { sessions: [TTL_3600] } });
    expect((await ctx.plan()).steps).toEqual([]);
  });

  test('BSON wrappers from a non-promoting driver are read as numbers; a stored NaN is repaired in place', async () => {
    const { ctx } = await session({ indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: new Int32(3600) }] } });
    expect((await ctx.plan()).steps).toEqual([]);
    const nan = await session({ indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: new Double(Number.NaN) }] } });
    const [step] = (await nan.ctx.plan()).steps;
    expect(step).toMatchObject({ action: 'repair-expire-after-seconds', ttl: { from: null, to: 3600 } });
  });

  test('a listIndexes failure other than NamespaceNotFound is a StoreError with the server code', async () => {
    const db = new RecordingDb((call) => {
      const command = call.args[0] as Record<string, unknown>;
      if ('listIndexes' in command) throw serverError(13, 'Unauthorized', 'not authorized on app to execute command');
      return { version: '7.0.2', ok: 1 };
    });
    const ctx = await connect(sessionsOnly, new MongoStore({ db }));
    await expect(ctx.plan()).rejects.toMatchObject({ code: 'MONGO_INSPECT_FAILED' });
    await expect(ctx.plan()).rejects.toThrow('Unauthorized 13');
  });

  test('counts: the documents a shortening makes eligible at once, by the server clock, on the date member', async () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const counted: unknown[] = [];
    const { db, ctx } = await session({
      now,
      indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 7200 }] },
      other: (call) => {
        counted.push(call.args[0]);
        return 42;
      },
    });
    const plan = await ctx.plan({ counts: true });
    expect(db.commands().at(-1)).toEqual({ hello: 1 });
    expect(db.dataCalls()).toEqual([
      {
        op: 'countDocuments',
        collection: 'sessions',
        args: [{ createdAt: { $lte: new Date('2026-03-01T11:00:00Z'), $gt: new Date('2026-03-01T10:00:00Z') } }, {}],
      },
    ]);
    expect(plan.steps[0]?.effect?.affected).toBe(42);
  });

  test('counts: lengthening needs no query and affects 0', async () => {
    const { db, ctx } = await session({ indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 60 }] } });
    const plan = await ctx.plan({ counts: true });
    expect(db.dataCalls()).toEqual([]);
    expect(plan.steps[0]?.effect?.affected).toBe(0);
  });
});

describe('apply(): the exact commands, and the server codes handled', () => {
  test('creates the collection and the index with the planned command documents', async () => {
    const { db, ctx } = await session({});
    const plan = await ctx.plan();
    const result = await ctx.apply(plan);
    expect(result.applied).toHaveLength(2);
    expect(db.commands().slice(2)).toEqual([
      { create: 'sessions' },
      {
        createIndexes: 'sessions',
        indexes: [{ key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 3600 }],
      },
    ]);
  });

  test('a changed TTL: one collMod, and the reply is checked', async () => {
    const { db, ctx } = await session({
      indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 60 }] },
      collMod: () => ({ expireAfterSeconds_old: 60, expireAfterSeconds_new: 3600, ok: 1 }),
    });
    await ctx.apply(await ctx.plan());
    expect(db.commands().slice(2)).toEqual([
      { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
    ]);
  });

  test('a collMod reply with another value is an error, not a silent success', async () => {
    const { ctx } = await session({
      indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 60 }] },
      collMod: () => ({ expireAfterSeconds_old: 60, expireAfterSeconds_new: 60, ok: 1 }),
    });
    await expect(ctx.apply(await ctx.plan())).rejects.toMatchObject({ code: 'MONGO_COLLMOD_MISMATCH' });
  });

  test('IndexOptionsConflict (85) from createIndexes: a StoreError saying the collection changed', async () => {
    const { ctx } = await session({
      indexes: { sessions: [] },
      createIndexes: () => {
        throw serverError(
          85,
          'IndexOptionsConflict',
          'An equivalent index already exists with the same name but different options. Requested index: …',
        );
      },
    });
    const failure = ctx.apply(await ctx.plan());
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    await expect(failure).rejects.toMatchObject({ code: 'MONGO_INDEX_OPTIONS_CONFLICT' });
  });

  test('IndexKeySpecsConflict (86) from createIndexes: a StoreError telling to plan again', async () => {
    const { ctx } = await session({
      indexes: { sessions: [] },
      createIndexes: () => {
        throw serverError(86, 'IndexKeySpecsConflict', 'An existing index has the same name as the requested index.');
      },
    });
    await expect(ctx.apply(await ctx.plan())).rejects.toMatchObject({
      code: 'MONGO_INDEX_NAME_CONFLICT',
      hint: expect.stringContaining('plan again'),
    });
  });

  test('the codes decide, not the message text', async () => {
    const { ctx } = await session({
      indexes: { sessions: [] },
      createIndexes: () => {
        throw serverError(85, 'IndexOptionsConflict', 'some other wording entirely');
      },
    });
    await expect(ctx.apply(await ctx.plan())).rejects.toMatchObject({ code: 'MONGO_INDEX_OPTIONS_CONFLICT' });
  });

  test('conflicts and unallowed destructive steps stop apply before any command', async () => {
    const { db, ctx } = await session({
      indexes: { sessions: [TTL_3600, { v: 2, key: { x: 1 }, name: 'x_1', expireAfterSeconds: 5 }] },
    });
    const plan = await ctx.plan();
    const sent = db.commands().length;
    await expect(ctx.apply(plan)).rejects.toMatchObject({ code: 'PLAN_HAS_CONFLICTS' });
    const destructive = await ctx.plan({ allowDestructive: true });
    const sentBefore = db.commands().length;
    await expect(ctx.apply(destructive)).rejects.toMatchObject({ code: 'PLAN_DESTRUCTIVE_NOT_ALLOWED' });
    expect(db.commands().length).toBe(sentBefore);
    expect(sent).toBe(2);
    await ctx.apply(destructive, { allowDestructive: true });
    expect(db.commands().at(-1)).toEqual({ dropIndexes: 'sessions', index: 'x_1' });
  });

  test('NamespaceExists (48) on create and IndexNotFound (27) on drop mean the outcome already holds', async () => {
    const db = new RecordingDb((call) => {
      const command = call.args[0] as Record<string, unknown>;
      if ('create' in command) throw serverError(48, 'NamespaceExists', 'Collection app.sessions already exists.');
      if ('dropIndexes' in command) throw serverError(27, 'IndexNotFound', 'index not found with name [x_1]');
      return { ok: 1 };
    });
    const ctx = await connect(sessionsOnly, new MongoStore({ db }));
    const step = (command: Record<string, unknown>, cls: 'additive' | 'destructive') => ({
      entity: 'Session',
      collection: 'sessions',
      action: 'x',
      class: cls,
      summary: 's',
      command: '',
      payload: { op: 'command', command, count: null },
    });
    await ctx.apply(
      {
        store: 'mongodb',
        target: 't',
        steps: [
          step({ create: 'sessions' }, 'additive'),
          step({ dropIndexes: 'sessions', index: 'x_1' }, 'destructive'),
        ],
      },
      { allowDestructive: true },
    );
    expect(db.commands()).toHaveLength(2);
  });

  test('a plan from another store, or a tampered step, is refused', async () => {
    const { ctx } = await session({});
    await expect(ctx.apply({ store: 'cassandra', target: 't', steps: [] })).rejects.toMatchObject({
      code: 'PLAN_WRONG_STORE',
    });
    await expect(
      ctx.apply({
        store: 'mongodb',
        target: 't',
        steps: [
          { entity: null, collection: 'c', action: 'a', class: 'additive', summary: 'x', command: '', payload: {} },
        ],
      }),
    ).rejects.toMatchObject({ code: 'PLAN_BAD_STEP' });
  });
});

describe('ensureCollections()', () => {
  test('idempotent: applies what is missing, then nothing', async () => {
    const indexes: Record<string, Array<Record<string, unknown>>> = {};
    const db = new RecordingDb(
      schemaResponder({
        get indexes() {
          return indexes;
        },
        createIndexes: (command) => {
          indexes['sessions'] = [{ v: 2, ...(command['indexes'] as Array<Record<string, unknown>>)[0] }];
          return { ok: 1 };
        },
      }),
    );
    const ctx = await connect(sessionsOnly, new MongoStore({ db }));
    expect((await ctx.ensureCollections()).applied.map((s) => s.action)).toEqual([
      'create-collection',
      'create-ttl-index',
    ]);
    expect((await ctx.ensureCollections()).applied).toEqual([]);
  });

  test('IndexOptionsConflict (85) in a race: plans once more and converges with collMod', async () => {
    let listed = 0;
    const db = new RecordingDb(
      schemaResponder({
        get indexes() {
          // Another process created the index with another TTL between our listIndexes and createIndexes.
          return { sessions: listed++ === 0 ? [] : [{ ...TTL_3600, expireAfterSeconds: 60 }] };
        },
        createIndexes: () => {
          throw serverError(
            85,
            'IndexOptionsConflict',
            'An equivalent index already exists with the same name but different options.',
          );
        },
      }),
    );
    const ctx = await connect(sessionsOnly, new MongoStore({ db }));
    const result = await ctx.ensureCollections();
    expect(result.applied.map((s) => s.action)).toEqual(['set-expire-after-seconds']);
    expect(db.commands().at(-1)).toEqual({
      collMod: 'sessions',
      index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 },
    });
  });

  test('never destructive: a conflict stops it before any change', async () => {
    const { db, ctx } = await session({
      version: '4.4.0',
      indexes: { sessions: [{ v: 2, key: { createdAt: 1 }, name: 'createdAt_1' }] },
    });
    await expect(ctx.ensureCollections()).rejects.toMatchObject({ code: 'SCHEMA_CONFLICT' });
    expect(db.commands()).toEqual([{ buildInfo: 1 }, { listIndexes: 'sessions' }]);
  });

  test('a non-TTL index on 5.1+ is converted in place', async () => {
    const { db, ctx } = await session({
      version: '6.0.2',
      indexes: { sessions: [{ v: 2, key: { createdAt: 1 }, name: 'createdAt_1' }] },
    });
    await ctx.ensureCollections();
    expect(db.commands().at(-1)).toEqual({
      collMod: 'sessions',
      index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 },
    });
  });
});

describe('MongoStore', () => {
  test('refuses a missing db with guidance', () => {
    expect(() => new MongoStore({} as never)).toThrow(/needs a mongodb driver Db/);
    expect(() => new MongoStore({ db: new RecordingDb(() => ({})), hideExpired: 'yes' as never })).toThrow(
      /hideExpired/,
    );
  });

  test('open() compiles the model and throws its ModelError', async () => {
    const { Cache } = await import('./ttl-without-date');
    const m = new ModelBuilder().entity(Cache).build();
    await expect(connect(m, new MongoStore({ db: new RecordingDb(() => ({})) }))).rejects.toMatchObject({
      code: 'MONGO_TTL_NO_DATE_MEMBER',
    });
  });
});
