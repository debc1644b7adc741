/**
 * A store written outside lifespan (StoreSession is exported) may not judge plans by the plan gate:
 * StoreContext still refuses a retroactive step without allowRetroactive before the session runs
 * anything, and checkPlan() on a session without one is a typed refusal, never a TypeError.
 */
import { connect, ModelBuilder, type MigrationPlan, type Store, type StoreSession } from '../../src';

class Lease {
  id = '';
}

const model = new ModelBuilder().entity(Lease, (e) => e.toCollection('leases').key((l) => l.id)).build();

/** A session that applies whatever it is given, and (plain JavaScript) has no checkPlan. */
function thirdPartyStore(ran: MigrationPlan[]): Store {
  const session = {
    store: 'lease-box',
    apply: async (plan: MigrationPlan) => {
      ran.push(plan);
      return { applied: [...plan.steps] };
    },
    close: async () => undefined,
  };
  return {
    name: 'lease-box',
    describe: () => 'a third-party store',
    open: async () => session as unknown as StoreSession,
  };
}

const shortening: MigrationPlan = {
  store: 'lease-box',
  target: 'a third-party store',
  steps: [
    {
      entity: 'Lease',
      collection: 'leases',
      action: 'change-ttl-index',
      class: 'in-place',
      summary: 'expireAfterSeconds 3600 → 60',
      command: '',
      ttl: { from: 3600, to: 60 },
      effect: { kind: 'retroactive', text: 'documents older than 60 s expire at once', verified: true },
      payload: {},
    },
  ],
};

test('apply() refuses a retroactive step without consent even when the session does not', async () => {
  const ran: MigrationPlan[] = [];
  const db = await connect(model, thirdPartyStore(ran));
  await expect(db.apply(shortening)).rejects.toMatchObject({ code: 'PLAN_RETROACTIVE_NOT_ALLOWED' });
  expect(ran).toEqual([]);
  await db.apply(shortening, { allowRetroactive: true });
  expect(ran).toHaveLength(1);
});

test('checkPlan() on a session without one: PLAN_CHECK_UNSUPPORTED, not a TypeError', async () => {
  const db = await connect(model, thirdPartyStore([]));
  expect(() => db.checkPlan(shortening)).toThrow(expect.objectContaining({ code: 'PLAN_CHECK_UNSUPPORTED' }));
});
