import { Double, Int32 } from 'mongodb';
import { connect, LifespanError, ModelBuilder, StoreError } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import { ENSURE_ROUNDS } from '../../src/runtime/ensure-collections';
import { Cart, model, Session } from './fixtures';
import { MemoryDb } from './fake/memory-db';
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
    await expect(ctx.plan()).rejects.toMatchObject({ code: 'STORE_OPERATION_FAILED' });
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
        // The forecast before and after the step (issue 25): one aggregation each.
        return call.op === 'aggregate' ? [] : 42;
      },
    });
    const plan = await ctx.plan({ counts: true });
    expect(db.commands().at(-1)).toEqual({ hello: 1 });
    expect(db.dataCalls().filter((c) => c.op !== 'aggregate')).toEqual([
      {
        op: 'countDocuments',
        collection: 'sessions',
        args: [{ createdAt: { $lte: new Date('2026-03-01T11:00:00Z'), $gt: new Date('2026-03-01T10:00:00Z') } }, {}],
      },
    ]);
    expect(db.dataCalls().filter((c) => c.op === 'aggregate')).toHaveLength(2);
    expect(plan.steps[0]?.effect?.affected).toBe(42);
  });

  test('counts: lengthening makes nothing expire (affected 0) and counts the due documents it keeps (issue 25)', async () => {
    const { db, ctx } = await session({
      indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 60 }] },
      other: (call) => (call.op === 'countDocuments' ? 2 : call.op === 'aggregate' ? [] : undefined),
    });
    const plan = await ctx.plan({ counts: true });
    // One count of the due documents kept, then the forecast before and after (one aggregation each).
    expect(db.dataCalls().map((c) => c.op)).toEqual(['countDocuments', 'aggregate', 'aggregate']);
    expect(plan.steps[0]?.effect).toMatchObject({ affected: 0, unexpires: true, unexpired: 2 });
  });
});

describe('apply(): the exact commands, and the server codes handled', () => {
  test('creates the collection and the index with the planned command documents (evaluating fake)', async () => {
    const db = new MemoryDb();
    const ctx = await connect(sessionsOnly, new MongoStore({ db }));
    const plan = await ctx.plan();
    const result = await ctx.apply(plan);
    expect(result.applied).toHaveLength(2);
    expect(db.commands().slice(2)).toEqual([
      // apply() reads the live indexes to judge what the TTL step does to stored documents.
      { listIndexes: 'sessions' },
      { create: 'sessions' },
      {
        createIndexes: 'sessions',
        indexes: [{ key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 3600 }],
      },
    ]);
    // The outcome, read back from the fake's index table: the index exists and nothing is left to plan.
    expect((await db.command({ listIndexes: 'sessions' }))['cursor']).toMatchObject({ firstBatch: [{}, TTL_3600] });
    expect((await ctx.plan()).steps).toEqual([]);
  });

  test('a changed TTL: one collMod, the reply (from the index table) is checked, and the index holds the new value', async () => {
    const db = new MemoryDb();
    await db.command({ createIndexes: 'sessions', indexes: [{ ...TTL_3600, expireAfterSeconds: 60 }] });
    const ctx = await connect(sessionsOnly, new MongoStore({ db }));
    const before = db.calls.length;
    // allowUnexpiry: the live count of due documents a lengthening keeps is pinned in unexpiry tests.
    await ctx.apply(await ctx.plan(), { allowUnexpiry: true });
    expect(
      db.calls
        .slice(before)
        .filter((c) => c.op === 'command')
        .map((c) => c.args[0])
        .slice(2),
    ).toEqual([
      { listIndexes: 'sessions' },
      { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
    ]);
    expect((await db.command({ listIndexes: 'sessions' }))['cursor']).toMatchObject({ firstBatch: [{}, TTL_3600] });
    expect((await ctx.plan()).steps).toEqual([]);
  });

  test('a collMod reply with another value is an error, not a silent success', async () => {
    const { ctx } = await session({
      indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 60 }] },
      collMod: () => ({ expireAfterSeconds_old: 60, expireAfterSeconds_new: 60, ok: 1 }),
    });
    await expect(ctx.apply(await ctx.plan(), { allowUnexpiry: true })).rejects.toMatchObject({
      code: 'MONGO_COLLMOD_MISMATCH',
    });
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
    const failure = ctx.apply(await ctx.plan(), { allowRetroactive: true });
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
    await expect(ctx.apply(await ctx.plan(), { allowRetroactive: true })).rejects.toMatchObject({
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
    await expect(ctx.apply(await ctx.plan(), { allowRetroactive: true })).rejects.toMatchObject({
      code: 'MONGO_INDEX_OPTIONS_CONFLICT',
    });
  });

  test('conflicts and unallowed destructive steps stop apply before any command', async () => {
    const { db, ctx } = await session({
      indexes: { sessions: [TTL_3600, { v: 2, key: { x: 1 }, name: 'x_1', expireAfterSeconds: 5 }] },
    });
    const plan = await ctx.plan();
    const sent = db.commands().length;
    await expect(ctx.apply(plan)).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
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

  /** Another process created the index with other options between our listIndexes and createIndexes. */
  const lostIndexRace = (): never => {
    throw serverError(
      85,
      'IndexOptionsConflict',
      'An equivalent index already exists with the same name but different options.',
    );
  };

  test('IndexOptionsConflict (85) in a race: plans once more and converges with collMod', async () => {
    let listed = 0;
    const db = new RecordingDb(
      schemaResponder({
        get indexes() {
          // Another process created the index with another TTL between our listIndexes and createIndexes.
          return { sessions: listed++ === 0 ? [] : [{ ...TTL_3600, expireAfterSeconds: 60 }] };
        },
        createIndexes: lostIndexRace,
        // The collection exists but is empty: creating the TTL index affects no stored document.
        other: (call) => (call.op === 'countDocuments' ? 0 : undefined),
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

  test('a race lost on every round: re-planned as often as on every store (ENSURE_ROUNDS), then reported', async () => {
    let creates = 0;
    const db = new RecordingDb(
      schemaResponder({
        indexes: { sessions: [] },
        createIndexes: () => {
          creates += 1;
          return lostIndexRace();
        },
        other: (call) => (call.op === 'countDocuments' ? 0 : undefined),
      }),
    );
    const ctx = await connect(sessionsOnly, new MongoStore({ db }));
    await expect(ctx.ensureCollections()).rejects.toMatchObject({ code: 'MONGO_INDEX_OPTIONS_CONFLICT' });
    expect(creates).toBe(ENSURE_ROUNDS);
  });

  test('never destructive: a conflict stops it before any change', async () => {
    const { db, ctx } = await session({
      version: '4.4.0',
      indexes: { sessions: [{ v: 2, key: { createdAt: 1 }, name: 'createdAt_1' }] },
    });
    await expect(ctx.ensureCollections()).rejects.toMatchObject({ code: 'PLAN_CONFLICT' });
    expect(db.commands()).toEqual([{ buildInfo: 1 }, { listIndexes: 'sessions' }]);
  });

  test('a non-TTL index on 5.1+ is converted in place when the collection holds no document', async () => {
    const { db, ctx } = await session({
      version: '6.0.2',
      indexes: { sessions: [{ v: 2, key: { createdAt: 1 }, name: 'createdAt_1' }] },
      other: (call) => (call.op === 'countDocuments' ? 0 : undefined),
    });
    await ctx.ensureCollections();
    expect(db.dataCalls()).toEqual([{ op: 'countDocuments', collection: 'sessions', args: [{}, { limit: 1 }] }]);
    expect(db.commands().at(-1)).toEqual({
      collMod: 'sessions',
      index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 },
    });
  });
});

describe('ensureCollections() over stored documents: steps that make them expire need review', () => {
  const NON_TTL = { v: 2, key: { createdAt: 1 }, name: 'createdAt_1' };
  const cases: Array<[string, SchemaScript, string, Record<string, unknown>]> = [
    [
      'a shortening collMod (7200 → 3600)',
      { indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 7200 }] } },
      'change TTL index createdAt_1 on sessions.createdAt: expireAfterSeconds 7200 → 3600',
      { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
    ],
    [
      'a conversion of a non-TTL index to a TTL index',
      { version: '6.0.2', indexes: { sessions: [NON_TTL] } },
      'make index createdAt_1 on sessions.createdAt a TTL index (expireAfterSeconds: 3600)',
      { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
    ],
    [
      'a TTL index created on an existing collection',
      { indexes: { sessions: [] } },
      'create TTL index createdAt_1 on sessions.createdAt (expireAfterSeconds: 3600)',
      {
        createIndexes: 'sessions',
        indexes: [{ key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 3600 }],
      },
    ],
    [
      'a repair of a corrupt (NaN) value',
      { indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: Number.NaN }] } },
      'repair TTL index createdAt_1',
      { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
    ],
  ];

  test.each(cases)('%s: ENSURE_NEEDS_REVIEW, nothing applied', async (_name, script, summary) => {
    const { db, ctx } = await session({ ...script, other: (call) => (call.op === 'countDocuments' ? 1 : undefined) });
    const failure = ctx.ensureCollections();
    await expect(failure).rejects.toBeInstanceOf(LifespanError);
    await expect(failure).rejects.toMatchObject({
      code: 'ENSURE_NEEDS_REVIEW',
      entity: 'Session',
      message: expect.stringContaining(`Session: ${summary}`),
      hint: 'use plan() + apply() after review, or ensureCollections({ allowRetroactive: true })',
    });
    expect(db.commands().filter((c) => !('buildInfo' in c || 'listIndexes' in c))).toEqual([]);
  });

  test.each(cases)('%s: applied with allowRetroactive, without counting', async (_name, script, _summary, command) => {
    const { db, ctx } = await session({ ...script, other: () => 1 });
    await ctx.ensureCollections({ allowRetroactive: true });
    expect(db.dataCalls()).toEqual([]);
    expect(db.commands().at(-1)).toEqual(command);
  });

  test('a lengthening collMod (60 → 3600) is applied without asking when no due document waits: nothing expires or lives again', async () => {
    const { db, ctx } = await session({
      indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 60 }] },
      other: (call) => (call.op === 'countDocuments' ? 0 : undefined),
    });
    await ctx.ensureCollections();
    expect(db.dataCalls().map((c) => c.op)).toEqual(['countDocuments']);
    expect(db.commands().at(-1)).toMatchObject({ collMod: 'sessions' });
  });

  test('one step needing review stops the whole plan: the safe steps of other entities are not applied either', async () => {
    const { db, ctx } = await session(
      {
        indexes: { sessions: [{ ...TTL_3600, expireAfterSeconds: 7200 }] },
        other: (call) => (call.op === 'countDocuments' ? 1 : undefined),
      },
      new ModelBuilder().entity(Cart).entity(Session).build(),
    );
    await expect(ctx.ensureCollections()).rejects.toMatchObject({ code: 'ENSURE_NEEDS_REVIEW' });
    expect(db.commands().filter((c) => 'create' in c || 'createIndexes' in c || 'collMod' in c)).toEqual([]);
    // The new collection needs no count: it holds nothing yet.
    expect(db.dataCalls().map((c) => c.collection)).toEqual(['sessions']);
  });
});

describe('apply() decides from the payload what a step does', () => {
  const step = (payload: unknown, cls: 'additive' | 'destructive' | 'in-place' | 'conflict' = 'additive') => ({
    entity: 'Session',
    collection: 'sessions',
    action: 'x',
    class: cls,
    summary: 'relabelled step',
    command: '',
    payload,
  });
  const plan = (...steps: Array<ReturnType<typeof step>>) => ({ store: 'mongodb', target: 't', steps });

  test('a dropIndexes relabelled as additive is still destructive: refused without allowDestructive', async () => {
    const { db, ctx } = await session({});
    const drop = step({ op: 'command', command: { dropIndexes: 'sessions', index: 'createdAt_1' }, count: null });
    await expect(ctx.apply(plan(drop))).rejects.toMatchObject({ code: 'PLAN_DESTRUCTIVE_NOT_ALLOWED' });
    await expect(ctx.apply(plan(step(drop.payload, 'in-place')))).rejects.toMatchObject({
      code: 'PLAN_DESTRUCTIVE_NOT_ALLOWED',
    });
    expect(db.commands()).toEqual([]);
    await ctx.apply(plan(drop), { allowDestructive: true });
    expect(db.commands()).toEqual([{ dropIndexes: 'sessions', index: 'createdAt_1' }]);
  });

  test('a conflict relabelled as additive still stops the plan', async () => {
    const { db, ctx } = await session({});
    const create = step({ op: 'command', command: { create: 'sessions' }, count: null });
    await expect(ctx.apply(plan(create, step({ op: 'conflict', reason: 'r' })))).rejects.toMatchObject({
      code: 'PLAN_CONFLICT',
    });
    expect(db.commands()).toEqual([]);
  });

  test.each([
    ['a drop of the collection', { drop: 'sessions' }],
    ['a dropDatabase', { dropDatabase: 1 }],
    ['a collection-level expireAfterSeconds', { collMod: 'sessions', expireAfterSeconds: 0 }],
    [
      'a NaN expireAfterSeconds',
      { createIndexes: 'sessions', indexes: [{ key: { createdAt: 1 }, name: 'c', expireAfterSeconds: Number.NaN }] },
    ],
    ['a TTL on _id', { collMod: 'sessions', index: { keyPattern: { _id: 1 }, expireAfterSeconds: 5 } }],
  ])('a payload with %s is refused before anything is sent', async (_name, command) => {
    const { db, ctx } = await session({});
    const failure = ctx.apply(plan(step({ op: 'command', command, count: null })), { allowDestructive: true });
    await expect(failure).rejects.toBeInstanceOf(LifespanError);
    expect(db.commands()).toEqual([]);
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
