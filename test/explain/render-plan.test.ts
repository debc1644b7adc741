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

const AT = new Date('2026-12-01T10:00:00Z');

test('markdown: a title, every row naming the configured store and target, readable TTLs, commands folded', () => {
  expect(
    renderPlans(plans, 'markdown', {
      names: ['events', 'visits', 'main'],
      modelsFile: 'src/models.ts',
      commit: 'abc1234',
      at: AT,
    }),
  ).toMatchInlineSnapshot(`
   "# lifespan plan · models \`src/models.ts\` · commit \`abc1234\` · 2026-12-01T10:00:00Z

   | store | entity | TTL old → new | change | class | effect | takes effect | records affected |
   | --- | --- | --- | --- | --- | --- | --- | --- |
   | \`events\` (cassandra: Cassandra keyspace 'app') | Session | 1h → 5m (3600 s → 300 s) | set-default-ttl | in-place | new-writes-only | at apply, for writes after it | 0 |
   | \`visits\` (mongodb: MongoDB database 'app') | Visit | 1h → 5m (3600 s → 300 s) | collmod-ttl | in-place | retroactive | at apply | 42 |
   | \`main\` (cosmos: database 'app') | — | — | in sync | — | — | — | — |

   ## \`events\` (cassandra: Cassandra keyspace 'app')

   ### step 1: sessions: default_time_to_live 3600 → 300

   existing cells keep the expiry stamped when they were written

   <details><summary>native command</summary>

   \`\`\`
   ALTER TABLE "app"."sessions" WITH default_time_to_live = 300
   \`\`\`

   </details>

   ## \`visits\` (mongodb: MongoDB database 'app')

   ### step 1: visits: TTL index lastSeenAt_1 expireAfterSeconds 3600 → 300

   documents older than now − 300s become eligible at once _(per the store’s documentation)_

   <details><summary>native command</summary>

   \`\`\`
   db.runCommand({ collMod: "visits", index: { keyPattern: { lastSeenAt: 1 }, expireAfterSeconds: 300 } })
   \`\`\`

   </details>
   "
  `);
});

test('markdown: two stores of one kind are told apart; in-sync rows name their store', () => {
  const sqlite: MigrationPlan = { store: 'relational', target: 'better-sqlite3 dev.db (ttl: emulate)', steps: [] };
  const pg: MigrationPlan = { store: 'relational', target: 'pg postgres://app:****@db/app (ttl: emulate)', steps: [] };
  const md = renderPlans([sqlite, pg], 'markdown', { names: ['local', 'prod'], at: AT });
  expect(md).toContain('| `local` (relational: better-sqlite3 dev.db (ttl: emulate)) | — | — | in sync |');
  expect(md).toContain('| `prod` (relational: pg postgres://app:****@db/app (ttl: emulate)) | — | — | in sync |');
});

test('markdown: a statement an earlier step shows (the bookkeeping table) is not repeated', () => {
  const bookkeeping = 'CREATE TABLE IF NOT EXISTS "lifespan_ttl" ("table_name" TEXT NOT NULL)';
  const create = (table: string): MigrationPlan['steps'][number] => ({
    entity: table,
    collection: table,
    action: 'create-table',
    class: 'additive',
    summary: `create table ${table}`,
    command: [`CREATE TABLE "${table}" (id TEXT)`, bookkeeping, `INSERT INTO "lifespan_ttl" VALUES ('${table}')`].join(
      ';\n',
    ),
    payload: {},
  });
  const md = renderPlans([{ store: 'relational', target: 'db', steps: [create('a'), create('b')] }], 'markdown', {
    at: AT,
  });
  expect(md.split(bookkeeping).length - 1).toBe(1);
  expect(md).toContain('-- (the same statement as in step 1)');
});

test('markdown: when each change takes effect', () => {
  const md = renderPlans(plans, 'markdown', { at: AT });
  expect(md).toContain('| new-writes-only | at apply, for writes after it |');
  expect(md).toContain('| retroactive | at apply |');
});

test('json: every field but the provider-private payload', () => {
  const json = JSON.parse(renderPlans(plans, 'json')) as { version: number; plans: MigrationPlan[] };
  expect(json.version).toBe(2);
  expect(json.plans).toHaveLength(3);
  expect(json.plans[0]?.steps[0]).toEqual({
    takesEffect: 'at apply, for writes after it',
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
    "cassandra (Cassandra keyspace 'app'): 1 step(s)\n1. [in-place] sessions: default_time_to_live 3600 → 300\n   TTL 1h → 5m (3600 s → 300 s)\n",
  );
  expect(text).toContain(
    'effect: retroactive: documents older than now − 300s become eligible at once (42 stored records affected)',
  );
  expect(text).toContain("cosmos (database 'app'): in sync with the model, nothing to do.");
});

test('markdown of plans that are all in sync', () => {
  expect(renderPlans([{ store: 'cosmos', target: 'x', steps: [] }], 'markdown')).toContain(
    '| `cosmos` (cosmos: x) | — | — | in sync | — | — | — | — |',
  );
});
