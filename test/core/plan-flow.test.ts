/**
 * Issue 28, point 1: the core runs the plan flow once. A plan is judged by the plan gate (each
 * step's payload parsed by the store's step table) exactly once per apply(), from connect() and
 * from `lifespan apply`; and every store's ensureCollections() runs its steps through the table.
 */
import knex, { type Knex } from 'knex';
import { connect, ModelBuilder, TimeToLive, type Store } from '../../src';
import { RelationalStore } from '../../src/providers/relational';
import { RELATIONAL_STEPS } from '../../src/providers/relational/steps';
import { applyCommand } from '../../src/cli/commands/apply';
import type { Io } from '../../src/cli/io';

jest.mock('../../src/cli/commands/with-targets', () => ({
  // The CLI's store resolution (config, URLs) is not what is tested: the run gets the test's store.
  withTargets: async (
    options: { readonly store?: unknown },
    io: Io,
    run: (targets: unknown, io: Io) => Promise<unknown>,
  ) => run(options.store, io),
}));

@TimeToLive('1h')
class Session {
  id = '';
}

const model = new ModelBuilder().entity(Session, (e) => e.toCollection('sessions').key((s) => s.id)).build();

let db: Knex;
beforeEach(() => {
  db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
});
afterEach(() => db.destroy());
afterEach(() => jest.restoreAllMocks());

const store = (): Store => new RelationalStore({ knex: db, ttl: 'emulate', logger: { warn: () => undefined } });

/** Counts how often the gate parses a create-table payload (one per step judged). */
const countParses = () => jest.spyOn(RELATIONAL_STEPS.table['create-table'], 'parse');

test('apply() from connect() judges the plan once', async () => {
  const context = await connect(model, store());
  const plan = await context.plan();
  const creates = plan.steps.filter((s) => (s.payload as { op?: string }).op === 'create-table').length;
  expect(creates).toBeGreaterThan(0);
  const parses = countParses();
  await context.apply(plan);
  expect(parses).toHaveBeenCalledTimes(creates);
  await context.close();
});

test('lifespan apply judges every plan once, before any store is applied', async () => {
  const parses = countParses();
  const out: string[] = [];
  const io: Io = { out: (t) => out.push(t), err: (t) => out.push(t), isTty: false };
  const target = { name: 'main', where: 'sqlite', opened: { store: store() } };
  const targets = { model, modelsFile: undefined, targets: [target], dispose: async () => undefined };
  const code = await applyCommand({ yes: true, store: targets } as never, io);
  expect(code).toBe(0);
  expect(out.join('')).toContain('applied');
  const creates = (await (await connect(model, store())).plan()).steps.length;
  expect(creates).toBe(0);
  expect(parses).toHaveBeenCalledTimes(1);
});
