/**
 * apply() and ensureCollections() judge a TTL step against the live collection before running it.
 * MongoDB has no compare-and-set for collMod, so another process can change the index between that
 * read and the collMod: the reply's expireAfterSeconds_old tells, and a step that thereby shortened
 * the TTL without allowRetroactive fails saying what it changed and what to put back. A TTL index
 * created on an existing collection needs consent only when the collection holds a document.
 */
import { connect, ModelBuilder, type StoreContext } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import type { MongoDbLike } from '../../src/providers/mongodb/gateway';
import { MemoryDb } from './fake/memory-db';
import type { Doc } from './recording-db';

class Lease {
  id = '';
  createdAt: Date | null = null;
}

const model = (ttl: number) =>
  new ModelBuilder()
    .entity(Lease, (e) =>
      e
        .toCollection('leases')
        .key((l) => l.id)
        .createdAt((l) => l.createdAt)
        .timeToLive(ttl),
    )
    .build();

/** The fake, with `meanwhile` run once just before the first collMod reaches it: another process. */
function racing(memory: MemoryDb, meanwhile: (memory: MemoryDb) => Promise<unknown>): MongoDbLike {
  let raced = false;
  return new Proxy(memory, {
    get(target, name, receiver) {
      if (name !== 'command') return Reflect.get(target, name, receiver) as unknown;
      return async (command: Doc) => {
        if ('collMod' in command && !raced) {
          raced = true;
          await meanwhile(memory);
        }
        return memory.command(command);
      };
    },
  }) as unknown as MongoDbLike;
}

const setTtl = (seconds: number) => (memory: MemoryDb) =>
  memory.command({ collMod: 'leases', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: seconds } });

/** Another process drops the TTL index and puts back a plain index on the same key. */
const makePlain = async (memory: MemoryDb) => {
  await memory.command({ dropIndexes: 'leases', index: 'createdAt_1' });
  await memory.command({ createIndexes: 'leases', indexes: [{ key: { createdAt: 1 }, name: 'createdAt_1' }] });
};

async function liveTtl(memory: MemoryDb): Promise<unknown> {
  const reply = await memory.command({ listIndexes: 'leases' });
  const specs = (reply['cursor'] as { firstBatch: Doc[] }).firstBatch;
  return specs.find((s) => s['name'] === 'createdAt_1')?.['expireAfterSeconds'];
}

/** A fake holding one lease under a TTL index of 100 s; the app's next version asks for 200 s. */
async function at100(): Promise<MemoryDb> {
  const memory = new MemoryDb();
  await (await connect(model(100), new MongoStore({ db: memory }))).ensureCollections();
  memory.seed('leases', [{ _id: 'a', createdAt: new Date(memory.now.getTime() - 250_000) }]);
  return memory;
}

const next = (db: MongoDbLike) => connect(model(200), new MongoStore({ db }));

describe('a collMod judged a lengthening, raced by another process before it runs', () => {
  test('apply(): raised 100 → 300 meanwhile, so 200 shortened it: MONGO_TTL_CHANGED_MEANWHILE with the way back', async () => {
    const memory = await at100();
    const v2 = await next(racing(memory, setTtl(300)));
    const plan = await v2.plan();
    expect(plan.steps.map((s) => s.ttl)).toEqual([{ from: 100, to: 200 }]);
    const failure = v2.apply(plan);
    await expect(failure).rejects.toMatchObject({
      code: 'MONGO_TTL_CHANGED_MEANWHILE',
      store: 'mongodb',
      entity: 'Lease',
      message: expect.stringMatching(/expireAfterSeconds 100\b.*expireAfterSeconds 300\b.*set 200\b/),
      hint: expect.stringContaining(
        'db.runCommand({ collMod: "leases", index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 300 } })',
      ),
    });
    expect(await liveTtl(memory)).toBe(200);
  });

  test('ensureCollections(): the same race, the same error (its plan judged 100 → 200)', async () => {
    const memory = await at100();
    const v2 = await next(racing(memory, setTtl(300)));
    await expect(v2.ensureCollections()).rejects.toMatchObject({ code: 'MONGO_TTL_CHANGED_MEANWHILE' });
  });

  test('the index made a plain one meanwhile: the collMod converted it, and the error says so', async () => {
    const memory = await at100();
    const v2 = await next(racing(memory, makePlain));
    await expect(v2.apply(await v2.plan())).rejects.toMatchObject({
      code: 'MONGO_TTL_CHANGED_MEANWHILE',
      message: expect.stringContaining('changed the index to a plain index (no expireAfterSeconds)'),
      hint: expect.stringContaining('drop the index and create it again without expireAfterSeconds'),
    });
  });

  test('lowered 100 → 150 meanwhile: 200 still lengthens it, so the step stands', async () => {
    const memory = await at100();
    const v2 = await next(racing(memory, setTtl(150)));
    await expect(v2.apply(await v2.plan())).resolves.toMatchObject({ applied: [{ ttl: { from: 100, to: 200 } }] });
    expect(await liveTtl(memory)).toBe(200);
  });

  test('with allowRetroactive the shortening had consent: applied, by apply() and by ensureCollections()', async () => {
    for (const run of [
      async (v2: StoreContext) => v2.apply(await v2.plan(), { allowRetroactive: true }),
      (v2: StoreContext) => v2.ensureCollections({ allowRetroactive: true }),
    ]) {
      const memory = await at100();
      await run(await next(racing(memory, setTtl(300))));
      // The other process's collMod, then this one's.
      expect(memory.commands().filter((c) => 'collMod' in c)).toHaveLength(2);
      expect(await liveTtl(memory)).toBe(200);
    }
  });
});

describe('a TTL index created on a collection that exists by the time apply() runs', () => {
  /** A plan made before the collection existed (create + TTL index), then the app creates it. */
  async function plannedBeforeTheCollection(documents: Doc[]) {
    const memory = new MemoryDb();
    const v1 = await connect(model(3600), new MongoStore({ db: memory }));
    const plan = await v1.plan();
    expect(plan.steps.map((s) => s.action)).toEqual(['create-collection', 'create-ttl-index']);
    await memory.command({ create: 'leases' });
    memory.seed('leases', documents);
    const probes = () => memory.calls.filter((c) => c.op === 'countDocuments');
    return { memory, v1, plan, probes };
  }

  test('empty: one one-document probe, then applied without allowRetroactive', async () => {
    const { memory, v1, plan, probes } = await plannedBeforeTheCollection([]);
    await v1.apply(plan);
    expect(probes()).toEqual([{ op: 'countDocuments', collection: 'leases', args: [{}, { limit: 1 }] }]);
    expect(await liveTtl(memory)).toBe(3600);
  });

  test('holding a document: PLAN_RETROACTIVE_NOT_ALLOWED saying so, nothing sent', async () => {
    const { memory, v1, plan } = await plannedBeforeTheCollection([{ _id: 'a', createdAt: new Date(0) }]);
    await expect(v1.apply(plan)).rejects.toMatchObject({
      code: 'PLAN_RETROACTIVE_NOT_ALLOWED',
      message: expect.stringContaining("'leases' holds documents"),
    });
    expect(memory.commands().filter((c) => 'createIndexes' in c)).toEqual([]);
    await v1.apply(plan, { allowRetroactive: true });
    expect(await liveTtl(memory)).toBe(3600);
  });
});
