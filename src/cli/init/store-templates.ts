/**
 * What `lifespan init --store …` writes into lifespan.config.ts for each store it knows: the
 * imports and one named factory. docs/migrations.md shows the same factories (a test compares).
 * Secrets come from the environment (a .env beside the config is loaded); each factory hands its
 * password or key to the CLI's masker, and skips connecting when an offline command only asks
 * for its kind.
 */
export interface StoreTemplate {
  /** The npm packages the factory imports (besides lifespan-orm). */
  readonly packages: readonly string[];
  readonly imports: readonly string[];
  /** The factory's key in `stores`. */
  readonly key: string;
  readonly factory: string;
}

const RELATIONAL = "import { RelationalStore } from 'lifespan-orm/relational';";
const KNEX = "import knex from 'knex';";

function sqlFactory(client: 'pg' | 'mysql2', variable: string, example: string, extra = ''): string {
  return `() => {
      const url = process.env.${variable} ?? '${example}';
      const db = knex({ client: '${client}', connection: url${extra} });
      return {
        store: new RelationalStore({ knex: db, ttl: 'emulate' }),
        secrets: [decodeURIComponent(new URL(url).password)],
        dispose: () => db.destroy(),
      };
    }`;
}

export const STORE_TEMPLATES = {
  sqlite: {
    packages: ['knex', 'better-sqlite3'],
    imports: [KNEX, RELATIONAL],
    key: 'sqlite',
    factory: `() => {
      const db = knex({
        client: 'better-sqlite3',
        connection: { filename: process.env.SQLITE_FILE ?? './app.db' },
        useNullAsDefault: true,
      });
      return { store: new RelationalStore({ knex: db, ttl: 'emulate' }), dispose: () => db.destroy() };
    }`,
  },
  postgres: {
    packages: ['knex', 'pg'],
    imports: [KNEX, RELATIONAL],
    key: 'postgres',
    factory: sqlFactory('pg', 'DATABASE_URL', 'postgres://app@localhost:5432/app'),
  },
  mariadb: {
    packages: ['knex', 'mysql2'],
    imports: [KNEX, RELATIONAL],
    key: 'mariadb',
    // knex's `version` tells offline commands (snapshot, diff) MariaDB's SQL from MySQL's.
    factory: sqlFactory('mysql2', 'MARIADB_URL', 'mysql://app@localhost:3306/app', ", version: '10.11'"),
  },
  mysql: {
    packages: ['knex', 'mysql2'],
    imports: [KNEX, RELATIONAL],
    key: 'mysql',
    factory: sqlFactory('mysql2', 'MYSQL_URL', 'mysql://app@localhost:3306/app', ", version: '8.0'"),
  },
  redis: {
    packages: ['redis'],
    imports: ["import { createClient } from 'redis';", "import { RedisStore } from 'lifespan-orm/redis';"],
    key: 'redis',
    factory: `async ({ offline }) => {
      const url = process.env.REDIS_URL ?? 'redis://localhost:6379';
      const client = createClient({ url });
      // Offline commands only ask for the store's kind: no connection then.
      if (!offline) await client.connect();
      return {
        store: new RedisStore({ client, prefix: 'app:' }),
        secrets: [decodeURIComponent(new URL(url).password)],
        dispose: () => client.destroy(),
      };
    }`,
  },
  mongodb: {
    packages: ['mongodb'],
    imports: ["import { MongoClient } from 'mongodb';", "import { MongoStore } from 'lifespan-orm/mongodb';"],
    key: 'mongodb',
    factory: `() => {
      const url = process.env.MONGODB_URL ?? 'mongodb://localhost:27017/app';
      const client = new MongoClient(url);
      return {
        store: new MongoStore({ db: client.db() }),
        secrets: [decodeURIComponent(new URL(url).password)],
        dispose: () => client.close(),
      };
    }`,
  },
  cassandra: {
    packages: ['cassandra-driver'],
    imports: ["import { Client } from 'cassandra-driver';", "import { CassandraStore } from 'lifespan-orm/cassandra';"],
    key: 'cassandra',
    factory: `() => {
      const client = new Client({
        contactPoints: [process.env.CASSANDRA_HOST ?? '127.0.0.1:9042'],
        localDataCenter: process.env.CASSANDRA_DC ?? 'datacenter1',
      });
      const keyspace = process.env.CASSANDRA_KEYSPACE ?? 'app';
      return { store: new CassandraStore({ client, keyspace }), dispose: () => client.shutdown() };
    }`,
  },
  cosmos: {
    packages: ['@azure/cosmos'],
    imports: ["import { CosmosClient } from '@azure/cosmos';", "import { CosmosStore } from 'lifespan-orm/cosmos';"],
    key: 'cosmos',
    factory: `() => {
      const key = process.env.COSMOS_KEY ?? '';
      const client = new CosmosClient({ endpoint: process.env.COSMOS_ENDPOINT ?? 'https://localhost:8081', key });
      const database = client.database(process.env.COSMOS_DATABASE ?? 'app');
      return { store: new CosmosStore({ database }), secrets: [key], dispose: () => client.dispose() };
    }`,
  },
} as const satisfies Record<string, StoreTemplate>;

export type InitStore = keyof typeof STORE_TEMPLATES;
export const INIT_STORES = Object.keys(STORE_TEMPLATES) as InitStore[];

/** lifespan.config.ts for `stores`, importing the model from `modelsImport` (e.g. './src/models.js'). */
export function configSource(stores: readonly InitStore[], modelsImport: string): string {
  const templates = stores.map((s) => STORE_TEMPLATES[s]);
  const imports = [...new Set(templates.flatMap((t) => t.imports))];
  const factories = templates.map((t) => `    ${t.key}: ${t.factory},`);
  return [
    '// Written by `lifespan init`: the model and the stores every lifespan command works with.',
    "import { defineConfig } from 'lifespan-orm';",
    ...imports,
    `import { model } from '${modelsImport}';`,
    '',
    'export default defineConfig({',
    '  model,',
    '  stores: {',
    ...factories,
    '  },',
    '});',
    '',
  ].join('\n');
}

/** The example models file, written when the project has none: fluent, so any decorator setting compiles it. */
export const MODELS_EXAMPLE = `// Written by \`lifespan init\`: an example model; replace it with your entities.
import { ModelBuilder } from 'lifespan-orm';

export class Session {
  id = '';
  userId = '';
  createdAt = new Date(0);
}

export const model = new ModelBuilder()
  .entity(Session, (e) =>
    e
      .toCollection('sessions')
      .key((s) => s.id, { type: 'string' })
      .field((s) => s.userId, { type: 'string' })
      .createdAt((s) => s.createdAt)
      .timeToLive('1h'),
  )
  .build();
`;

/** The pull-request job: the snapshot must be current, and the change per store is published. */
export const CI_WORKFLOW = `# Written by \`lifespan init\`: on every pull request, fail when the model changed and
# lifespan.snapshot.json was not updated, and publish what the TTL change does per store.
# No store and no secret is needed.
name: lifespan
on: pull_request
jobs:
  ttl-diff:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      - run: npx lifespan diff --check
      - run: npx lifespan diff --base origin/\${{ github.base_ref }} --format markdown > ttl-change.md
      - run: cat ttl-change.md >> "$GITHUB_STEP_SUMMARY"
`;
