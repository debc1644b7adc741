import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { runCli } from './fixture-project';
import { gitInit, projectFrom, relationalConfig } from './first-hour-projects';

/**
 * Issue 24, points 2, 3, 4 and 6, through the built CLI as a subprocess in CommonJS and NodeNext
 * fixture projects: the config read the same way by every command (export shapes, lookup, .env),
 * the offline commands on the configured stores (kind, TTL mode, SQL dialect), model rules of
 * unconfigured store kinds, and `diff --base` on the pull request that adds the models.
 */
let cli: ReturnType<typeof buildCli>;
beforeAll(() => {
  cli = buildCli('first-hour-config-cli');
}, 180_000);

const REDIS_URL = process.env.REDIS_URL as string;

const run = (cwd: string, args: string[], env?: NodeJS.ProcessEnv) => runCli(cli.main, cwd, args, env);

/** A fluent SQLite store factory, the body of the config shapes below. */
const SQLITE_MAIN = `main: () => {
      const db = knex({ client: 'better-sqlite3', connection: { filename: process.env.FIXTURE_DB ?? ':memory:' }, useNullAsDefault: true });
      return { store: new RelationalStore({ knex: db, ttl: 'emulate' }), dispose: () => db.destroy() };
    }`;
const HEAD = `import { defineConfig } from 'lifespan-orm';
import { RelationalStore } from 'lifespan-orm/relational';
import knex from 'knex';
import { model as built } from './src/models.js';
void defineConfig;
`;

describe('point 2: every config export shape with one meaning is read, in both module systems', () => {
  const shapes: Record<string, string> = {
    'named model + default { model, stores }': `export const model = built;\nexport default { model, stores: { ${SQLITE_MAIN} } };`,
    'named model + default { stores }': `export const model = built;\nexport default { stores: { ${SQLITE_MAIN} } };`,
    'named config': `export const config = { model: built, stores: { ${SQLITE_MAIN} } };`,
    'named model + named stores': `export const model = built;\nexport const stores = { ${SQLITE_MAIN} };`,
    defineConfig: `export default defineConfig({ model: built, stores: { ${SQLITE_MAIN} } });`,
  };
  test.each(Object.keys(shapes).flatMap((shape) => [['esm', shape] as const, ['cjs', shape] as const]))(
    '%s: %s plans the configured store',
    async (base, shape) => {
      const models =
        base === 'esm'
          ? {}
          : { 'src/models.ts': fs.readFileSync(path.join(__dirname, 'projects', 'cjs', 'models.cts'), 'utf8') };
      const project = projectFrom(cli.outDir, base, `shape-${base}`, {
        ...models,
        'lifespan.config.cjs': null,
        'lifespan.config.ts': HEAD + shapes[shape],
      });
      const plan = await run(project, ['plan']);
      expect(plan.stderr).toBe('');
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain('main: relational');
      expect(plan.stdout).toContain('create table sessions');
    },
  );

  test('two different configs in one module are refused, naming both (usage, exit 2)', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'shape-two', {
      'lifespan.config.ts': `${HEAD}export const config = { model: built, stores: {} };\nexport default { model: built, stores: { ${SQLITE_MAIN} } };`,
    });
    const plan = await run(project, ['plan']);
    expect(plan.stderr).toContain('[CLI_BAD_CONFIG]');
    expect(plan.stderr).toContain('the default export and the named export `config` are two configs');
    expect(plan.code).toBe(2);
  });
});

describe('point 7: the config is found from a subfolder, and the .env beside it is loaded', () => {
  test('plan in src/ finds the project config; the .env sets the SQLite file; the output says so', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'lookup-env', { '.env': 'FIXTURE_DB=./from-dotenv.db\n' });
    const inSub = await run(path.join(project, 'src'), ['apply', '--yes']);
    expect(inSub.code).toBe(0);
    expect(inSub.stderr).toContain('note: loaded ../.env (beside the config)');
    // The config's relative paths mean what they mean in the project folder, where the app runs.
    expect(fs.existsSync(path.join(project, 'from-dotenv.db'))).toBe(true);
    expect(fs.existsSync(path.join(project, 'src', 'from-dotenv.db'))).toBe(false);
    // A variable set in the environment wins over the .env.
    const own = path.join(project, 'own.db');
    expect((await run(project, ['apply', '--yes'], { FIXTURE_DB: own })).code).toBe(0);
    expect(fs.existsSync(own)).toBe(true);
  });
});

describe('point 3: snapshot, diff and explain take the configured stores, TTL mode and SQL dialect', () => {
  test('SQLite with ttl: emulate: the snapshot and the diff say emulated, and say what they took', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'configured-sqlite');
    const snapshot = await run(project, ['snapshot']);
    expect(snapshot.code).toBe(0);
    expect(snapshot.stdout).toContain('stores from lifespan.config.ts: main → relational (ttl: emulate, SQLite SQL)');
    const written = JSON.parse(fs.readFileSync(path.join(project, 'lifespan.snapshot.json'), 'utf8')) as {
      stores: string[];
      relationalTtl: string;
    };
    expect(written).toMatchObject({ stores: ['relational'], relationalTtl: 'emulate' });
    const diff = await run(project, ['diff', '--check'], { FIXTURE_TTL: '5m' });
    expect(diff.stdout).toContain('Session: TTL change on sessions');
    expect(diff.stdout).not.toContain('the declaration is ignored');
    expect(diff.stdout).toContain('main → relational (ttl: emulate, SQLite SQL)');
    expect(diff.code).toBe(1);
  });

  test.each([
    ['PostgreSQL', 'pg', 'process.env.PG_URL', 'timestamp with time zone'],
    ['MariaDB', 'mysql2', "{ uri: process.env.MYSQL_URL }, version: '10.11'", 'DATETIME(3)'],
  ])('a %s project gets its own SQL offline, and the live plan agrees', async (label, client, connection, instant) => {
    const project = projectFrom(cli.outDir, 'esm', `configured-${client}`, {
      'lifespan.config.ts': relationalConfig(client, connection, 'emulate', './src/models.js'),
    });
    const explain = await run(project, ['explain', 'src/models.ts']);
    expect(explain.stderr).toBe('');
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain(`main → relational (ttl: emulate, ${label} SQL)`);
    expect(explain.stdout).toContain(`${label} has no native TTL`);
    expect(explain.stdout).not.toContain('SQLite');
    expect((await run(project, ['snapshot'])).code).toBe(0);
    const ddl = fs.readFileSync(path.join(project, 'lifespan.snapshot.json'), 'utf8');
    expect(ddl).toContain(instant);
    expect(ddl).not.toContain('INTEGER');
    const ignored = projectFrom(cli.outDir, 'esm', `ignored-${client}`, {
      'lifespan.config.ts': relationalConfig(client, connection, 'ignore', './src/models.js'),
    });
    const text = await run(ignored, ['explain', 'src/models.ts']);
    expect(text.stdout).toContain(`has no effect on ${label}`);
    expect(text.stdout).not.toContain('SQLite');
    // The same config opens the real server: the plan's DDL is the one explain showed.
    const plan = await run(project, ['plan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(instant);
  });
});

/** Valid for relational, Redis, Cassandra and Cosmos DB; MongoDB needs a date member to count from. */
const NO_DATE_MEMBER = `const { ModelBuilder } = require('lifespan-orm');
class CacheEntry {
  constructor() { this.id = ''; this.value = ''; }
}
exports.model = new ModelBuilder()
  .entity(CacheEntry, (e) => e.toCollection('cache_entries').key((c) => c.id, { type: 'string' }).field((c) => c.value, { type: 'string' }).timeToLive('10m'))
  .build();
`;
const SQLITE_AND_REDIS = `const knex = require('knex');
const { createClient } = require('redis');
const { RelationalStore } = require('lifespan-orm/relational');
const { RedisStore } = require('lifespan-orm/redis');
const { model } = require('./cache.cjs');
module.exports = {
  model,
  stores: {
    main: () => {
      const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
      return { store: new RelationalStore({ knex: db, ttl: 'emulate' }), dispose: () => db.destroy() };
    },
    cache: async ({ offline }) => {
      const client = createClient({ url: process.env.REDIS_URL });
      if (!offline) await client.connect();
      return { store: new RedisStore({ client, prefix: process.env.LIFESPAN_REDIS_PREFIX + 'first-hour:' }), dispose: () => client.destroy() };
    },
  },
};
`;

describe('point 4: a rule of a store kind the project does not use is not its error', () => {
  test('SQLite + Redis project: explain, snapshot and diff pass; plan reaches both real stores', async () => {
    const project = projectFrom(cli.outDir, 'cjs', 'sqlite-redis', {
      'cache.cjs': NO_DATE_MEMBER,
      'lifespan.config.cjs': SQLITE_AND_REDIS,
    });
    for (const args of [['explain', 'cache.cjs'], ['snapshot'], ['diff', '--check']]) {
      const result = await run(project, args, { REDIS_URL: 'redis://127.0.0.1:1' });
      expect([args, result.stderr, result.code]).toEqual([args, '', 0]);
      expect(result.stdout).toContain('cache → redis');
      expect(result.stdout).not.toContain('mongodb');
    }
    const plan = await run(project, ['plan'], { REDIS_URL });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('cache: redis');
  });

  test('without a config, the MongoDB rule fails (exit 3) and the hint names --store', async () => {
    const project = projectFrom(cli.outDir, 'cjs', 'no-config', {
      'cache.cjs': NO_DATE_MEMBER,
      'lifespan.config.cjs': null,
    });
    const explain = await run(project, ['explain', 'cache.cjs']);
    expect(explain.code).toBe(3);
    expect(explain.stderr).toContain('MONGO_TTL_NO_DATE_MEMBER');
    expect(explain.stderr).toContain(
      'pass --store with the kinds it uses (e.g. --store cosmos,cassandra,redis,relational',
    );
    const narrowed = await run(project, ['snapshot', '--models', 'cache.cjs', '--store', 'relational,redis']);
    expect(narrowed.code).toBe(0);
  });
});

describe('point 6: diff --base on the pull request that adds the models', () => {
  test('the base has no models file: every entity is new, exit 0; the title marks an uncommitted tree', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'first-pr', {
      'lifespan.config.ts': null,
      'src/models.ts': null,
      'src/visit.mts': null,
    });
    gitInit(project);
    const added = projectFrom(cli.outDir, 'esm', 'first-pr-files');
    for (const file of ['lifespan.config.ts', 'src/models.ts', 'src/visit.mts']) {
      fs.copyFileSync(path.join(added, file), path.join(project, file));
    }
    const diff = await run(project, ['diff', '--base', 'main', '--format', 'markdown']);
    expect(diff.stderr).toBe('');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/Session \| none → 1h[^|]*\| new-entity/);
    expect(diff.stdout).toMatch(/Visit \| none → 1d[^|]*\| new-entity/);
    expect(diff.stdout.split('\n')[0]).toMatch(/· uncommitted working tree \(on `[0-9a-f]+`\) ·/);
    execFileSync('git', ['add', '-A'], { cwd: project });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'models'], { cwd: project });
    const committed = await run(project, ['diff', '--base', 'main~1', '--format', 'markdown']);
    expect(committed.code).toBe(0);
    expect(committed.stdout.split('\n')[0]).toMatch(/· commit `[0-9a-f]+` ·/);
  });
});
