import { renderPlans, type MigrationPlan, type PlanStep } from '../../src';

/** Review finding 9: when each change reaches stored data, in every format. */
// The relational plan and the offline diff mark a change stamped by the application's code on
// each write (emulated expires_at, MongoDB's expiry field); the renderer reads only that flag.
function ttlStep(kind: 'retroactive' | 'new-writes-only' | 'none', stampedAtWrite = false): PlanStep {
  return {
    entity: 'Visit',
    collection: 'visits',
    action: 'ttl-change',
    class: 'in-place',
    summary: 'visits: TTL change',
    command: '-- command',
    ttl: { from: 3600, to: 300 },
    effect: {
      kind,
      text: 'what happens',
      affected: null,
      verified: true,
      ...(stampedAtWrite ? { stampedAtWrite } : {}),
    },
    payload: null,
  };
}

function takesEffectOf(store: string, kind: 'retroactive' | 'new-writes-only' | 'none'): string {
  const stamped = kind === 'new-writes-only' && (store === 'mongodb' || store === 'relational');
  const plan: MigrationPlan = { store, target: 't', steps: [ttlStep(kind, stamped)] };
  const json = JSON.parse(renderPlans([plan], 'json')) as { plans: { steps: { takesEffect: string }[] }[] };
  return json.plans[0]!.steps[0]!.takesEffect;
}

test('a MongoDB per-write expiry field changes when the new code deploys, not at apply', () => {
  expect(takesEffectOf('mongodb', 'new-writes-only')).toBe('at deploy (new writes of the new code)');
  expect(takesEffectOf('mongodb', 'retroactive')).toBe('at apply');
});

test('a relational store that ignores TTL: the change affects nothing, so it never "takes effect at deploy"', () => {
  expect(takesEffectOf('relational', 'none')).not.toMatch(/at deploy|at apply/);
  expect(takesEffectOf('relational', 'new-writes-only')).toBe('at deploy (new writes of the new code)');
});

test('Cassandra default_time_to_live changes at apply, for writes after it', () => {
  expect(takesEffectOf('cassandra', 'new-writes-only')).toBe('at apply, for writes after it');
});

test('text output (the default) has a takes-effect line and the readable TTL', () => {
  const text = renderPlans([{ store: 'mongodb', target: 't', steps: [ttlStep('new-writes-only', true)] }], 'text');
  expect(text).toContain('   takes effect: at deploy (new writes of the new code)\n');
  expect(text).toContain('TTL 1h → 5m (3600 s → 300 s)');
});
