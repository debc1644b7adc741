import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { runCli } from './fixture-project';
import { gitInit, projectFrom, relationalConfig } from './first-hour-projects';

/**
 * The config lookup and offline commands (issue 24's findings), through the built CLI as a
 * subprocess: the config lookup's bounds, offline factories that need credentials or hang, the
 * relational 'reject' mode offline, flags that narrow the config's choice, the markdown title in
 * CI, and the snapshot found with --config.
 */
let cli: ReturnType<typeof buildCli>;
beforeAll(() => {
  cli = buildCli('config-lookup-offline-cli');
}, 180_000);

const run = (cwd: string, args: string[], env?: NodeJS.ProcessEnv) => runCli(cli.main, cwd, args, env);

const NO_DATE_MEMBER = `const { ModelBuilder } = require('lifespan-orm');
class CacheEntry {
  constructor() { this.id = ''; this.value = ''; }
}
exports.model = new ModelBuilder()
  .entity(CacheEntry, (e) => e.toCollection('cache_entries').key((c) => c.id, { type: 'string' }).field((c) => c.value, { type: 'string' }).timeToLive('10m'))
  .build();
`;

describe('finding 3: the config search stays inside the project', () => {
  test('a config above the git top level (a stray /tmp/lifespan.config.ts) is not loaded', async () => {
    const stray = projectFrom(cli.outDir, 'cjs', 'stray-above', {
      'lifespan.config.cjs': "throw new Error('THE STRAY CONFIG RAN');\n",
      'package.json': null,
      'work/cache.cjs': NO_DATE_MEMBER,
    });
    const work = path.join(stray, 'work');
    gitInit(work);
    const explain = await run(work, ['explain', 'cache.cjs']);
    expect(explain.stderr).not.toContain('THE STRAY CONFIG RAN');
    // No config: every store kind is judged, and MongoDB's rule (a date member) is the one problem.
    expect(explain.stderr).toContain('MONGO_TTL_NO_DATE_MEMBER');
    expect(explain.code).toBe(3);
  });
});

const NEEDS_CREDENTIALS = `const knex = require('knex');
const { RelationalStore } = require('lifespan-orm/relational');
const { model } = require('./cache.cjs');
module.exports = {
  model,
  stores: {
    main: () => {
      if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');
      const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });
      return { store: new RelationalStore({ knex: db, ttl: 'emulate' }), dispose: () => db.destroy() };
    },
  },
};
`;
const HANGS = `const { model } = require('./cache.cjs');
module.exports = { model, stores: { main: () => new Promise(() => {}) } };
`;

describe('finding 2: an offline command does not fail or hang on a store factory', () => {
  test('a factory that needs credentials CI lacks: snapshot and diff --check go on, with a note', async () => {
    const project = projectFrom(cli.outDir, 'cjs', 'needs-credentials', {
      'cache.cjs': NO_DATE_MEMBER,
      'lifespan.config.cjs': NEEDS_CREDENTIALS,
    });
    const snapshot = await run(project, ['snapshot', '--store', 'relational,redis', '--emulate']);
    expect(snapshot.stderr).toContain('DATABASE_URL is not set');
    expect(snapshot.stderr).toContain('note:');
    expect(snapshot.code).toBe(0);
    const diff = await run(project, ['diff', '--check']);
    expect(diff.stderr).toContain('note:');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('redis');
  });

  test('a factory that never returns: explain gives up on it after a few seconds', async () => {
    const project = projectFrom(cli.outDir, 'cjs', 'factory-hangs', {
      'cache.cjs': NO_DATE_MEMBER,
      'lifespan.config.cjs': HANGS,
    });
    const explain = await run(project, ['explain', 'cache.cjs', '--store', 'redis']);
    expect(explain.stderr).toContain("the factory of store 'main' did not return within 5 s");
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain('Redis');
  }, 30_000);
});

describe('finding 5: a relational store with ttl: reject is judged as rejecting offline', () => {
  test('explain refuses the TTL entity, as the live store would', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'reject-sqlite', {
      'lifespan.config.ts': relationalConfig('better-sqlite3', "{ filename: ':memory:' }", 'reject', './src/models.js'),
    });
    const explain = await run(project, ['explain', 'src/models.ts']);
    expect(explain.stderr).toContain("configured with ttl: 'reject'");
    expect(explain.code).toBe(3);
  });
});

describe('finding 6: flags narrow the config’s choice', () => {
  test('--store relational in a PostgreSQL emulate project keeps its TTL mode and SQL', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'narrow-pg', {
      'lifespan.config.ts': relationalConfig('pg', 'process.env.PG_URL', 'emulate', './src/models.js'),
    });
    const explain = await run(project, ['explain', 'src/models.ts', '--store', 'relational']);
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain('PostgreSQL has no native TTL');
    expect(explain.stdout).not.toContain('SQLite');
  });

  test('--emulate alone judges the configured kinds only (no MongoDB rule)', async () => {
    const project = projectFrom(cli.outDir, 'cjs', 'narrow-emulate', {
      'cache.cjs': NO_DATE_MEMBER,
      'lifespan.config.cjs': `const knex = require('knex');
const { RelationalStore } = require('lifespan-orm/relational');
const { model } = require('./cache.cjs');
module.exports = { model, stores: { main: () => {
  const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  return { store: new RelationalStore({ knex: db }), dispose: () => db.destroy() };
} } };
`,
    });
    const explain = await run(project, ['explain', 'cache.cjs', '--emulate']);
    expect(explain.stderr).toBe('');
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain('main → relational');
    expect(explain.stdout).toContain('relational ttl: emulate (--emulate)');
  });
});

describe('finding 4: the markdown title in CI', () => {
  test('an untracked report file (`> ttl-change.md`) does not mark the tree uncommitted', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'title-untracked');
    gitInit(project);
    fs.writeFileSync(path.join(project, 'ttl-change.md'), '');
    const diff = await run(project, ['diff', '--base', 'main', '--format', 'markdown']);
    expect(diff.code).toBe(0);
    expect(diff.stdout.split('\n')[0]).toMatch(/· commit `[0-9a-f]+` ·/);
    fs.appendFileSync(path.join(project, 'src', 'models.ts'), '\n');
    const edited = await run(project, ['diff', '--base', 'main', '--format', 'markdown']);
    expect(edited.stdout.split('\n')[0]).toMatch(/· uncommitted working tree/);
  });
});

describe('finding 9: the snapshot with --config, and a snapshot from before the dialect was kept', () => {
  test('--config elsewhere: the snapshot in the current folder is used when none is beside the config', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'snapshot-here');
    fs.mkdirSync(path.join(project, 'conf'));
    fs.writeFileSync(
      path.join(project, 'conf', 'lifespan.config.ts'),
      relationalConfig('better-sqlite3', "{ filename: ':memory:' }", 'emulate', '../src/models.js'),
    );
    fs.rmSync(path.join(project, 'lifespan.config.ts'));
    expect(
      (await run(project, ['snapshot', '--file', 'lifespan.snapshot.json', '--config', 'conf/lifespan.config.ts']))
        .code,
    ).toBe(0);
    const diff = await run(project, ['diff', '--check', '--config', 'conf/lifespan.config.ts']);
    expect(diff.stderr).toBe('');
    expect(diff.code).toBe(0);
  });

  test('a PostgreSQL project with a snapshot that names no dialect is told to re-run lifespan snapshot', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'snapshot-old', {
      'lifespan.config.ts': relationalConfig('pg', 'process.env.PG_URL', 'emulate', './src/models.js'),
    });
    expect((await run(project, ['snapshot'])).code).toBe(0);
    const file = path.join(project, 'lifespan.snapshot.json');
    const old = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete old.relationalDialect;
    fs.writeFileSync(file, JSON.stringify(old));
    const diff = await run(project, ['diff']);
    expect(diff.stderr).toContain('CLI_SNAPSHOT_MISMATCH');
    expect(diff.stderr).toContain('re-run lifespan snapshot once');
  });
});

describe('finding 7: diff --base follows a renamed models file', () => {
  test('git mv of the models file with a shorter TTL is a TTL change, not a new entity', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'base-rename');
    gitInit(project);
    execFileSync('git', ['mv', 'src/models.ts', 'src/model.ts'], { cwd: project });
    const config = path.join(project, 'lifespan.config.ts');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('./src/models.js', './src/model.js'));
    const renamed = path.join(project, 'src', 'model.ts');
    fs.writeFileSync(
      renamed,
      fs.readFileSync(renamed, 'utf8').replace('@TimeToLive(SESSION_TTL)', "@TimeToLive('5m')"),
    );
    const diff = await run(project, ['diff', '--base', 'main', '--models', 'src/model.ts', '--store', 'relational']);
    expect(diff.stderr).toBe('');
    expect(diff.stdout).toContain('TTL 1h → 5m');
    expect(diff.stdout).not.toContain('compared with an empty model');
    fs.writeFileSync(path.join(project, 'src', 'extra.ts'), fs.readFileSync(path.join(project, 'src', 'model.ts')));
    const added = await run(project, ['diff', '--base', 'main', '--models', 'src/extra.ts', '--store', 'relational']);
    expect(added.stdout).toContain('src/extra.ts is not at main: compared with an empty model');
  });
});

describe('finding 10: init writes at the package root and keeps .env and SQLite files out of git', () => {
  test('init run in src/ writes the config at the root and appends to .gitignore', async () => {
    const project = projectFrom(cli.outDir, 'esm', 'init-in-src', {
      'lifespan.config.ts': null,
      '.gitignore': 'node_modules',
    });
    const init = await run(path.join(project, 'src'), ['init']);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(fs.existsSync(path.join(project, 'lifespan.config.ts'))).toBe(true);
    expect(fs.existsSync(path.join(project, 'src', 'lifespan.config.ts'))).toBe(false);
    expect(fs.readFileSync(path.join(project, '.gitignore'), 'utf8')).toBe('node_modules\n.env\n*.db\n');
  });
});
