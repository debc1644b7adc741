/**
 * What a review judged is what runs (issue 28's plan flow, from its review): a caller editing the
 * reviewed plan, or the plan it reviewed, after review changes nothing that runs; a third-party
 * session's labelled steps are refused at review, before any store of `lifespan apply` runs; a
 * store that does not judge un-expiry itself gets the step table's word in ensureCollections(); and
 * the flags of plan() / apply() / ensureCollections() are checked, so a misspelt or mistyped flag
 * is a BAD_ARGUMENT instead of running as if it were absent.
 */
import knex, { type Knex } from 'knex';
import { connect, ModelBuilder, TimeToLive, type MigrationPlan, type Store, type StoreSession } from '../../src';
import { PlanFlow } from '../../src/core/plan-flow';
import type { PlanFlowRules } from '../../src/core/plan-flow-rules';
import { shorterTtl } from '../../src/core/plan-consent';
import { refuse, type StepRules } from '../../src/core/plan-gate';
import { RelationalStore } from '../../src/providers/relational';

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

const sqlite = (): Store => new RelationalStore({ knex: db, ttl: 'emulate', logger: { warn: () => undefined } });

describe('a review runs what it judged', () => {
  test('the reviewed steps cannot be changed: a step added after review does not run', async () => {
    const context = await connect(model, sqlite());
    const reviewed = context.review({ store: 'relational', target: 'x', steps: [] });
    const drop = { ...(await context.plan()).steps[0], payload: { op: 'create-table', sql: ['DROP TABLE t'] } };
    expect(() => (reviewed.steps as unknown[]).push(drop)).toThrow(TypeError);
    expect(await reviewed.apply()).toEqual({ applied: [] });
    await context.close();
  });

  test("a third-party session applies the judged copy: editing the caller's plan after review changes nothing", async () => {
    const ran: MigrationPlan[] = [];
    const context = await connect(model, thirdPartyStore(ran));
    const plan: MigrationPlan = { store: 'lease-box', target: 'box', steps: [lengthening()] };
    const reviewed = context.review(plan);
    (plan.steps as unknown[]).push(shortening());
    await reviewed.apply();
    expect(ran).toHaveLength(1);
    expect(ran[0]?.steps).toHaveLength(1);
    expect(Object.isFrozen(ran[0]?.steps[0])).toBe(true);
  });

  test("a third-party session's labelled retroactive step is refused at review, before anything runs", async () => {
    const ran: MigrationPlan[] = [];
    const context = await connect(model, thirdPartyStore(ran));
    const plan: MigrationPlan = { store: 'lease-box', target: 'box', steps: [shortening()] };
    expect(() => context.review(plan)).toThrow(expect.objectContaining({ code: 'PLAN_RETROACTIVE_NOT_ALLOWED' }));
    expect(() => context.review(plan, { allowRetroactive: true })).not.toThrow();
    expect(ran).toEqual([]);
  });
});

describe('ensureCollections() and un-expiry', () => {
  test('a step the table says un-expires needs allowUnexpiry when the store does not judge it', async () => {
    const ran: string[] = [];
    const flow = new PlanFlow(unexpiringRules(ran));
    await expect(flow.ensureCollections()).rejects.toMatchObject({ code: 'ENSURE_NEEDS_REVIEW' });
    expect(ran).toEqual([]);
    await flow.ensureCollections({ allowUnexpiry: true });
    expect(ran).toEqual(['lengthen']);
  });
});

describe('the flags of plan(), apply() and ensureCollections() are checked', () => {
  test.each([
    ['plan({ count: true })', (c: Ctx) => c.plan({ count: true } as never)],
    ['plan({ counts: 1 })', (c: Ctx) => c.plan({ counts: 1 } as never)],
    ['apply(plan, { allowRetroactve: true })', (c: Ctx) => c.apply(EMPTY, { allowRetroactve: true } as never)],
    ["apply(plan, { allowDestructive: 'yes' })", (c: Ctx) => c.apply(EMPTY, { allowDestructive: 'yes' } as never)],
    ['ensureCollections({ allowUnexpiry: 1 })', (c: Ctx) => c.ensureCollections({ allowUnexpiry: 1 } as never)],
    ['ensureCollections({ force: true })', (c: Ctx) => c.ensureCollections({ force: true } as never)],
  ])('%s: BAD_ARGUMENT, nothing done', async (_call, run) => {
    const context = await connect(model, sqlite());
    await expect(run(context)).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    expect(await db.schema.hasTable('sessions')).toBe(false);
    await context.close();
  });
});

type Ctx = Awaited<ReturnType<typeof connect>>;
const EMPTY: MigrationPlan = { store: 'relational', target: 'x', steps: [] };

function step(from: number, to: number): MigrationPlan['steps'][number] {
  return {
    entity: 'Session',
    collection: 'sessions',
    action: 'set-ttl',
    class: 'in-place',
    summary: `TTL ${from} s → ${to} s`,
    command: '',
    ttl: { from, to },
    effect: { kind: 'retroactive', text: 'stored records are judged by the new TTL', verified: true },
    payload: {},
  };
}
const shortening = () => step(3600, 60);
const lengthening = () => step(60, 3600);

/** A session written outside lifespan: it checks plans its own way (here: not at all) and has no review(). */
function thirdPartyStore(ran: MigrationPlan[]): Store {
  const session = {
    store: 'lease-box',
    checkPlan: () => undefined,
    apply: async (plan: MigrationPlan) => {
      ran.push(plan);
      return { applied: [...plan.steps] };
    },
    close: async () => undefined,
  };
  return { name: 'lease-box', describe: () => 'box', open: async () => session as unknown as StoreSession };
}

interface Lengthen {
  readonly op: 'lengthen';
}

/** A store whose one step makes due records readable again, and which supplies no refuseUnexpiry. */
function unexpiringRules(ran: string[]): PlanFlowRules<Lengthen, 'op', null, undefined, null> {
  const steps: StepRules<Lengthen, 'op', null, undefined> = {
    store: 'lengthener',
    discriminant: 'op',
    conflictHint: 'none',
    expiresSooner: shorterTtl,
    table: {
      lengthen: {
        parse: (payload) => (payload['op'] === 'lengthen' ? { op: 'lengthen' } : refuse('not a lengthening')),
        blocks: () => false,
        destroys: () => false,
        expiresStored: () => false,
        unexpiresStored: () => true,
        apply: async () => {
          ran.push('lengthen');
          return true;
        },
        render: () => 'LENGTHEN',
        explain: 'makes due records readable again',
      },
    },
  };
  let done = false;
  return {
    steps,
    target: 'lengthener',
    scope: undefined,
    hold: (work) => work(null),
    desired: async () => (done ? [] : [{ ...lengthening(), action: 'lengthen', payload: { op: 'lengthen' } }]),
    afterRun: async () => {
      done = ran.length > 0;
    },
    ensure: { lostRace: () => false, afterLostRace: 'stop' },
  };
}
