/**
 * A sixth store needs its folder and one line in the descriptor list, nothing else: a made-up
 * store (test/fixtures/sixth-store: descriptor, explainer, connection-error patterns, a step table
 * with its plan-flow rules, an in-memory backing and a session) listed after the real ones the way
 * src/providers/stores.ts lists them, and the registry functions built over that list. Its explain
 * output, its URL, the reading of its driver's connection failures, the contract suite's capability
 * lookup and its plans (judged and run by the core's PlanFlow) all come from its folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { connect, ModelBuilder } from '../../src';
import { connectionError } from '../../src/providers/connection-errors';
import {
  CONNECTION_ERRORS,
  connectionErrorsOf,
  DESCRIPTORS,
  explainersOf,
  storeNamesOf,
} from '../../src/providers/registry';
import type { StoreDescriptor } from '../../src/providers/store-descriptor';
import { openerFor, urlTableOf } from '../../src/providers/url-openers';
import type { MigrationPlan, PlanStep } from '../../src/core/plan';
import { SixthBacking } from '../fixtures/sixth-store/backing';
import { descriptor as sixth } from '../fixtures/sixth-store/descriptor';
import { SIXTH_STEPS } from '../fixtures/sixth-store/steps';
import { SixthStore } from '../fixtures/sixth-store/store';
import { capabilitiesOf } from './capabilities';

/** The list line: what src/providers/stores.ts would read with the sixth store's import added. */
const LISTED = [...DESCRIPTORS, sixth] as const;

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'sixth-store');
const FIXTURE_FILES = fs
  .readdirSync(FIXTURE)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => path.join(FIXTURE, f));
const PROVIDERS = path.resolve(__dirname, '..', '..', 'src', 'providers');

/** The relative imports of a file (type imports included), resolved to the files they name. */
function relativeImports(file: string): string[] {
  return ts
    .preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => {
      const base = path.resolve(path.dirname(file), spec);
      return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f)) ?? base;
    });
}

/** The store folder under src/providers a file is in, if any. */
function storeFolderOf(file: string): string | undefined {
  const inProviders = path.relative(PROVIDERS, file);
  if (inProviders.startsWith('..') || path.dirname(inProviders) === '.') return undefined;
  return inProviders.split(path.sep)[0];
}

/** Every file the given ones import, directly or through what they import. */
function reachableFrom(files: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const next = [...files];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    for (const target of relativeImports(file)) {
      if (seen.has(target) || !target.endsWith('.ts')) continue;
      seen.add(target);
      next.push(target);
    }
  }
  return seen;
}

class Visit {
  id = '';
}
const model = new ModelBuilder()
  .entity(Visit, (e) =>
    e
      .toCollection('visits')
      .key((v) => v.id)
      .timeToLive('1h'),
  )
  .build();

function failure(fields: Record<string, unknown>, message = 'failed'): Error {
  return Object.assign(new Error(message), fields);
}

describe('a sixth store listed with the others', () => {
  test('is a store name, and explains without a connection through its own explainer', () => {
    expect(storeNamesOf(LISTED)).toEqual([...storeNamesOf(DESCRIPTORS), 'sixth']);
    const entries = explainersOf(LISTED).sixth.explain(model);
    expect(entries).toMatchObject([{ entity: 'Visit', store: 'sixth', mechanism: 'key-expiry', seconds: 3600 }]);
    expect(sixth.mechanisms).toContain(entries[0]?.mechanism);
  });

  test('explains through its session, rendered like any store', async () => {
    const db = await connect(model, new SixthStore());
    try {
      expect(db.explain().toText()).toContain('== sixth ==');
      expect(db.explain().entries.map((e) => e.store)).toEqual(['sixth']);
    } finally {
      await db.close();
    }
  });

  test('opens its URLs', async () => {
    const opened = await openerFor('sixth://host/shelf', urlTableOf(LISTED))('sixth://host/shelf');
    expect(opened.store).toBeInstanceOf(SixthStore);
  });

  test("its driver's connection failures are read by the patterns in its folder", () => {
    const patterns = connectionErrorsOf(LISTED);
    const read = (error: unknown) => connectionError(error, 'sixth', 'sixth://host/shelf', patterns);
    expect(read(failure({ code: 'SIXTH_BAD_TOKEN' }))).toMatchObject({ code: 'STORE_AUTH_FAILED', store: 'sixth' });
    expect(read(failure({ name: 'SixthNoSuchShelf' }))).toMatchObject({
      code: 'STORE_DATABASE_MISSING',
      hint: 'create the shelf first: sixth-driver never creates one',
    });
    expect(read(failure({ code: 'SIXTH_READ_ONLY' }, 'node 2 is a replica'))).toMatchObject({
      code: 'STORE_CONNECT_FAILED',
      message: expect.stringContaining('sixth://host/shelf is read-only: node 2 is a replica'),
      hint: 'connect to the writable node',
    });
    // Wrapped, as drivers wrap: the refused token inside a no-answer is the more specific reading.
    const wrapped = failure({ cause: failure({ code: 'SIXTH_BAD_TOKEN' }) }, 'sixth: no answer from host');
    expect(read(wrapped)).toMatchObject({ code: 'STORE_AUTH_FAILED' });
    expect(read(failure({}, 'sixth: no answer from host'))).toMatchObject({ code: 'STORE_UNREACHABLE' });
    // Without the list line the shared matching knows nothing of the sixth driver.
    expect(connectionError(failure({ code: 'SIXTH_BAD_TOKEN' }), 'sixth', 'x', CONNECTION_ERRORS)).toBeUndefined();
  });

  test("the contract suite's capability flags are its descriptor's", () => {
    const can = capabilitiesOf('sixth', { realTimeExpiry: false, expiryObservedBy: 'none' }, LISTED);
    const { ttlMechanism, ...flags } = sixth.capabilities;
    expect(can).toEqual({
      ...flags,
      realTimeExpiry: false,
      expiryObservedBy: 'none',
      storeName: 'sixth',
      mechanism: ttlMechanism,
    });
    expect(() => capabilitiesOf('sixth', { realTimeExpiry: false, expiryObservedBy: 'none' })).toThrow(
      "no store 'sixth' in the registry",
    );
  });

  test('every listed store reports a declared mechanism for a TTL, and names its driver packages', () => {
    const listed: readonly StoreDescriptor[] = LISTED;
    const undeclared = listed.filter((d) => !d.mechanisms.includes(d.capabilities.ttlMechanism)).map((d) => d.name);
    expect(undeclared).toEqual([]);
    expect(listed.filter((d) => d.driverPackages.length === 0).map((d) => d.name)).toEqual([]);
  });

  test("its folder imports only the shared code, no other store's, also through the shared code", () => {
    const inside = FIXTURE_FILES.flatMap((file) =>
      relativeImports(file)
        .filter((target) => storeFolderOf(target) !== undefined)
        .map((target) => `${path.basename(file)} imports ${path.relative(PROVIDERS, target)}`),
    );
    expect(inside).toEqual([]);
    // What the folder reaches through the shared code it imports (type imports included).
    const reached = reachableFrom(FIXTURE_FILES);
    expect([...new Set([...reached].map(storeFolderOf).filter((f) => f !== undefined))]).toEqual([]);
    // The walk does follow the shared code (the store contract is under src/providers).
    expect(reached).toContain(path.join(PROVIDERS, 'contract.ts'));
  });
});

/** A backing whose clock the test moves: `at` seconds from an arbitrary start. */
function clocked(): { backing: SixthBacking; at: (seconds: number) => void } {
  let now = 1_700_000_000_000;
  const start = now;
  return { backing: new SixthBacking(() => now), at: (seconds) => void (now = start + seconds * 1000) };
}

/** A shelf 'visits' with `ttl`, one record written at 0 s, and the clock at `later` seconds. */
function shelfHolding(ttl: number | 'none', later: number): SixthBacking {
  const { backing, at } = clocked();
  backing.createShelf('visits', ttl);
  backing.write('visits', 'v1');
  at(later);
  return backing;
}

function edited(
  plan: MigrationPlan,
  change: (payload: Record<string, unknown>) => Record<string, unknown>,
): MigrationPlan {
  const steps = plan.steps.map((s) => ({ ...s, payload: change({ ...(s.payload as Record<string, unknown>) }) }));
  return { ...plan, steps };
}

async function withDb<T>(
  backing: SixthBacking,
  work: (db: Awaited<ReturnType<typeof connect>>) => Promise<T>,
): Promise<T> {
  const db = await connect(model, new SixthStore('sixth://test/shelf', backing));
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

describe("the sixth store's plans run on the core's plan flow", () => {
  afterEach(() => jest.restoreAllMocks());

  test('plans a missing shelf, applies it to the backing, then is in sync', async () => {
    const { backing } = clocked();
    await withDb(backing, async (db) => {
      const plan = await db.plan();
      expect(plan).toMatchObject({ store: 'sixth', target: 'sixth://test/shelf' });
      expect(plan.steps).toEqual([
        expect.objectContaining({
          action: 'create-shelf',
          class: 'additive',
          collection: 'visits',
          command: 'SHELF CREATE visits TTL 3600',
          payload: { op: 'create-shelf', shelf: 'visits', ttl: 3600 },
        }),
      ]);
      expect((await db.apply(plan)).applied).toHaveLength(1);
      expect(backing.shelf('visits')?.ttl).toBe(3600);
      expect((await db.plan()).steps).toEqual([]);
    });
  });

  test('a shorter default over stored records is retroactive: refused without allowRetroactive, applied with it', async () => {
    // Written 5000 s ago: live under 7200 s, due under the model's 3600 s.
    const backing = shelfHolding(7200, 5000);
    await withDb(backing, async (db) => {
      const plan = await db.plan({ counts: true });
      expect(plan.steps).toEqual([
        expect.objectContaining({
          action: 'set-default-ttl',
          class: 'in-place',
          command: 'SHELF visits SET TTL 3600',
          ttl: { from: 7200, to: 3600 },
          effect: expect.objectContaining({ kind: 'retroactive', affected: 1 }),
          payload: { op: 'set-default-ttl', shelf: 'visits', from: 7200, to: 3600 },
        }),
      ]);
      await expect(db.apply(plan)).rejects.toMatchObject({ code: 'PLAN_RETROACTIVE_NOT_ALLOWED', store: 'sixth' });
      // The step table judges the payload: a plan without the labels is refused the same.
      const unlabelled = {
        ...plan,
        steps: plan.steps.map(({ effect: _effect, ttl: _ttl, ...rest }): PlanStep => rest),
      };
      await expect(db.apply(unlabelled)).rejects.toMatchObject({ code: 'PLAN_RETROACTIVE_NOT_ALLOWED' });
      expect(() => db.checkPlan(plan)).toThrow(expect.objectContaining({ code: 'PLAN_RETROACTIVE_NOT_ALLOWED' }));
      expect(backing.shelf('visits')?.ttl).toBe(7200);
      expect((await db.apply(plan, { allowRetroactive: true })).applied).toHaveLength(1);
      expect(backing.shelf('visits')?.ttl).toBe(3600);
    });
  });

  test('apply() judges a plan once: one parse per step by the step table', async () => {
    const parse = jest.spyOn(SIXTH_STEPS.table['set-default-ttl'], 'parse');
    await withDb(shelfHolding(7200, 10), async (db) => {
      await db.apply(await db.plan(), { allowRetroactive: true });
      expect(parse).toHaveBeenCalledTimes(1);
    });
    parse.mockClear();
    await withDb(shelfHolding(7200, 10), async (db) => {
      // review() judges (the CLI's way), and its apply() runs what was judged without judging again.
      const reviewed = db.review(await db.plan(), { allowRetroactive: true });
      expect(parse).toHaveBeenCalledTimes(1);
      expect((await reviewed.apply()).applied).toHaveLength(1);
      expect(parse).toHaveBeenCalledTimes(1);
    });
  });

  test('an edited payload is refused before anything runs', async () => {
    const backing = shelfHolding(7200, 10);
    await withDb(backing, async (db) => {
      const plan = await db.plan();
      const refused = { code: 'PLAN_BAD_STEP', store: 'sixth' };
      await expect(
        db.apply(
          edited(plan, (p) => ({ ...p, to: -5 })),
          { allowRetroactive: true },
        ),
      ).rejects.toMatchObject(refused);
      await expect(db.apply(edited(plan, (p) => ({ ...p, op: 'drop-shelf' })))).rejects.toMatchObject(refused);
      await expect(
        db.apply(
          edited(plan, (p) => ({ ...p, shelf: 'users' })),
          { allowRetroactive: true },
        ),
      ).rejects.toMatchObject(refused);
      // A `from` edited so the shortening reads as a lengthening: the labels still say retroactive (they
      // only add to a refusal), and with every consent the live default refuses what no longer starts from it.
      const relabelled = edited(plan, (p) => ({ ...p, from: 1800 }));
      await expect(db.apply(relabelled)).rejects.toMatchObject({ code: 'PLAN_RETROACTIVE_NOT_ALLOWED' });
      await expect(db.apply(relabelled, { allowRetroactive: true })).rejects.toMatchObject({
        code: 'PLAN_UNEXPIRY_NOT_ALLOWED',
      });
      await expect(db.apply(relabelled, { allowRetroactive: true, allowUnexpiry: true })).rejects.toMatchObject(
        refused,
      );
      expect(backing.shelf('visits')?.ttl).toBe(7200);
    });
  });

  test('a longer default over due-but-unswept records is an un-expiry: refused without allowUnexpiry', async () => {
    // Written 1000 s ago: due under 600 s (hidden, not yet swept), live again under 3600 s.
    const backing = shelfHolding(600, 1000);
    await withDb(backing, async (db) => {
      const plan = await db.plan({ counts: true });
      expect(plan.steps).toEqual([
        expect.objectContaining({
          action: 'set-default-ttl',
          effect: expect.objectContaining({ unexpires: true, unexpired: 1 }),
          payload: { op: 'set-default-ttl', shelf: 'visits', from: 600, to: 3600 },
        }),
      ]);
      await expect(db.apply(plan)).rejects.toMatchObject({ code: 'PLAN_UNEXPIRY_NOT_ALLOWED', store: 'sixth' });
      await expect(db.ensureCollections()).rejects.toMatchObject({ code: 'ENSURE_NEEDS_REVIEW', store: 'sixth' });
      expect(backing.shelf('visits')?.ttl).toBe(600);
      expect((await db.apply(plan, { allowUnexpiry: true })).applied).toHaveLength(1);
      expect(backing.shelf('visits')?.ttl).toBe(3600);
    });
  });

  test('ensureCollections() creates shelves, and refuses a shorter default only over stored records', async () => {
    await withDb(clocked().backing, async (db) => {
      expect((await db.ensureCollections()).applied.map((s) => s.action)).toEqual(['create-shelf']);
      expect(await db.ensureCollections()).toEqual({ applied: [] });
    });
    const empty = clocked().backing;
    empty.createShelf('visits', 7200);
    await withDb(empty, async (db) => {
      expect((await db.ensureCollections()).applied).toHaveLength(1);
      expect(empty.shelf('visits')?.ttl).toBe(3600);
    });
    const holding = shelfHolding(7200, 10);
    await withDb(holding, async (db) => {
      await expect(db.ensureCollections()).rejects.toMatchObject({ code: 'ENSURE_NEEDS_REVIEW', store: 'sixth' });
      expect(holding.shelf('visits')?.ttl).toBe(7200);
      expect((await db.ensureCollections({ allowRetroactive: true })).applied).toHaveLength(1);
      expect(holding.shelf('visits')?.ttl).toBe(3600);
    });
  });

  test('reads and writes are not supported: a typed refusal', async () => {
    await withDb(clocked().backing, async (db) => {
      expect(() => db.repository(Visit)).toThrow(
        expect.objectContaining({
          code: 'STORE_OPERATION_FAILED',
          store: 'sixth',
          message: expect.stringContaining('not supported by the sixth store'),
        }),
      );
      expect(() => db.unitOfWork()).toThrow(expect.objectContaining({ code: 'STORE_OPERATION_FAILED' }));
    });
  });
});
