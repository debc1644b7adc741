import { renderPlans, type MigrationPlan } from '../../src';

const plans: MigrationPlan[] = [
  {
    store: 'cassandra',
    target: "Cassandra keyspace 'app'",
    steps: [
      {
        entity: 'Session',
        collection: 'sessions',
        action: 'set-default-ttl',
        class: 'in-place',
        summary: 'sessions: default_time_to_live 3600 → 300',
        command: 'ALTER TABLE "app"."sessions" WITH default_time_to_live = 300',
        ttl: { from: 3600, to: 300 },
        effect: {
          kind: 'new-writes-only',
          text: 'existing cells keep the expiry stamped when they were written',
          affected: 0,
          verified: true,
        },
        payload: { secret: 'not rendered' },
      },
    ],
  },
  {
    store: 'mongodb',
    target: "MongoDB database 'app'",
    steps: [
      {
        entity: 'Visit',
        collection: 'visits',
        action: 'collmod-ttl',
        class: 'in-place',
        summary: 'visits: TTL index lastSeenAt_1 expireAfterSeconds 3600 → 300',
        command:
          'db.runCommand({ collMod: "visits", index: { keyPattern: { lastSeenAt: 1 }, expireAfterSeconds: 300 } })',
        ttl: { from: 3600, to: 300 },
        effect: {
          kind: 'retroactive',
          text: 'documents older than now − 300s become eligible at once',
          affected: 42,
          verified: false,
        },
        payload: {},
      },
    ],
  },
  { store: 'cosmos', target: "database 'app'", steps: [] },
];

test('markdown: a summary table, then each step with its native command', () => {
  expect(renderPlans(plans, 'markdown')).toMatchInlineSnapshot(`
"| entity | store | TTL old → new | change | class | effect | records affected |
| --- | --- | --- | --- | --- | --- | --- |
| Session | cassandra | 3600s → 300s | set-default-ttl | in-place | new-writes-only | 0 |
| Visit | mongodb | 3600s → 300s | collmod-ttl | in-place | retroactive | 42 |

### cassandra step 1: sessions: default_time_to_live 3600 → 300

existing cells keep the expiry stamped when they were written

\`\`\`
ALTER TABLE "app"."sessions" WITH default_time_to_live = 300
\`\`\`

### mongodb step 1: visits: TTL index lastSeenAt_1 expireAfterSeconds 3600 → 300

documents older than now − 300s become eligible at once _(per the store documentation; not yet confirmed by a live test)_

\`\`\`
db.runCommand({ collMod: "visits", index: { keyPattern: { lastSeenAt: 1 }, expireAfterSeconds: 300 } })
\`\`\`
"
`);
});

test('json: every field but the provider-private payload', () => {
  const json = JSON.parse(renderPlans(plans, 'json')) as { plans: MigrationPlan[] };
  expect(json.plans).toHaveLength(3);
  expect(json.plans[0]?.steps[0]).toEqual({
    entity: 'Session',
    collection: 'sessions',
    action: 'set-default-ttl',
    class: 'in-place',
    summary: 'sessions: default_time_to_live 3600 → 300',
    command: 'ALTER TABLE "app"."sessions" WITH default_time_to_live = 300',
    ttl: { from: 3600, to: 300 },
    effect: {
      kind: 'new-writes-only',
      text: 'existing cells keep the expiry stamped when they were written',
      affected: 0,
      verified: true,
    },
  });
  expect(JSON.stringify(json)).not.toContain('not rendered');
});

test('text: numbered steps, TTL old → new, effect with counts; in-sync stores say so', () => {
  const text = renderPlans(plans, 'text');
  expect(text).toContain(
    "cassandra (Cassandra keyspace 'app'): 1 step(s)\n1. [in-place] sessions: default_time_to_live 3600 → 300\n   TTL 3600s → 300s\n",
  );
  expect(text).toContain(
    'effect: retroactive: documents older than now − 300s become eligible at once (42 stored records affected)',
  );
  expect(text).toContain("cosmos (database 'app'): in sync with the model, nothing to do.");
});

test('markdown of plans that are all in sync', () => {
  expect(renderPlans([{ store: 'cosmos', target: 'x', steps: [] }], 'markdown')).toContain(
    '| — | — | — | in sync | — | — | — |',
  );
});
