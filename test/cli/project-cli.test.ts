import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { fixtureProject, runCli } from './fixture-project';

/**
 * The built CLI as a subprocess in a NodeNext ESM project and in a CommonJS one, as a new user
 * runs it: loading, config shapes, exit codes, secrets, diff/snapshot, --version, EPIPE, colour, purge.
 */
let cli: ReturnType<typeof buildCli>;
let esm: string;
let cjs: string;
beforeAll(() => {
  cli = buildCli('project-cli');
  esm = fixtureProject(cli.outDir, 'esm');
  cjs = fixtureProject(cli.outDir, 'cjs');
}, 120_000);

const inEsm = (args: string[], env?: NodeJS.ProcessEnv) => runCli(cli.main, esm, args, env);
const inCjs = (args: string[], env?: NodeJS.ProcessEnv) => runCli(cli.main, cjs, args, env);

describe('loader (finding 2)', () => {
  test('NodeNext: .js specifiers of .ts sources, .mts, top-level await, import.meta, tsconfig paths, decorator metadata', async () => {
    const run = await inEsm(['explain', 'src/models.ts', '--store', 'mongodb', '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { version, entries } = JSON.parse(run.stdout) as {
      version: number;
      entries: Array<{ collection: string; seconds: number }>;
    };
    expect(version).toBe(2);
    expect(entries.map((e) => [e.collection, e.seconds])).toEqual([
      ['sessions', 3600],
      ['visits', 86400],
    ]);
  });

  test('a .ts config (ESM) is found by default and its model planned', async () => {
    const run = await inEsm(['plan']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('main: relational');
    expect(run.stdout).toContain('create table sessions');
  });

  test('a module that throws is not a usage error (exit 5); --verbose shows the source line', async () => {
    const run = await inEsm(['explain', 'src/throws.ts', '--verbose']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('CLI_LOAD_FAILED');
    expect(run.stderr).toMatch(/throws\.ts:5:\d+/);
  });

  test.each([['models.cts'], ['models.cjs']])('CommonJS project: %s', async (file) => {
    const run = await inCjs(['explain', file, '--store', 'cassandra']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/default_time_to_live = (3600|900)/);
  });
});

describe('modules that throw, typescript missing (review 12 items 6, 7)', () => {
  test('a module that throws null or a string is the user code exit (5), with what was thrown', async () => {
    fs.writeFileSync(path.join(cjs, 'throws-null.cjs'), 'throw null;\n');
    fs.writeFileSync(path.join(cjs, 'throws-string.mjs'), "throw 'broken models';\n");
    const nul = await inCjs(['explain', 'throws-null.cjs']);
    expect(nul.stderr).toContain('[CLI_LOAD_FAILED]');
    expect(nul.stderr).toContain('failed: null');
    expect(nul.code).toBe(5);
    const str = await inCjs(['explain', 'throws-string.mjs']);
    expect(str.stderr).toContain('failed: broken models');
    expect(str.code).toBe(5);
  });

  test('an ESM project without typescript gets the typed error (exit 2), not an internal error', async () => {
    // The build and the project outside the repository, with every package but typescript.
    const root = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'lifespan-no-ts-'));
    try {
      const dist = path.join(root, 'dist');
      fs.cpSync(cli.outDir, dist, { recursive: true, filter: (f) => !f.includes(`${path.sep}projects`) });
      const modules = path.join(root, 'node_modules');
      fs.mkdirSync(modules);
      const repoModules = path.join(cli.outDir, '..', '..', 'node_modules');
      for (const name of fs.readdirSync(repoModules)) {
        if (name !== 'typescript' && name !== '.bin')
          fs.symlinkSync(path.join(repoModules, name), path.join(modules, name));
      }
      const project = path.join(root, 'esm');
      fs.cpSync(path.join(__dirname, 'projects', 'esm'), project, { recursive: true });
      fs.mkdirSync(path.join(project, 'node_modules'));
      fs.symlinkSync(dist, path.join(project, 'node_modules', 'lifespan-orm'), 'dir');
      const run = await runCli(path.join(dist, 'cli', 'main.js'), project, ['explain', 'src/models.ts']);
      expect(run.stderr).toContain('[CLI_TYPESCRIPT_MISSING]');
      expect(run.stderr).not.toContain('internal error');
      expect(run.code).toBe(2);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('--models and --url do not load the config (review 12 item 3)', () => {
  test('a config needing production settings breaks neither plan --url --models nor snapshot --models', async () => {
    const env = { FIXTURE_CONFIG_NEEDS_ENV: '1' };
    const db = path.join(cjs, 'no-config.db');
    const plan = await inCjs(['plan', '--url', `sqlite:${db}`, '--models', 'models.cjs'], env);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    const file = path.join(cjs, 'no-config.snapshot.json');
    const snapshot = await inCjs(['snapshot', '--models', 'models.cjs', '--file', file], env);
    expect(snapshot.stderr).toBe('');
    expect(snapshot.code).toBe(0);
    // The config is still loaded when its stores are needed.
    expect((await inCjs(['plan', '--models', 'models.cjs'], env)).stderr).toContain('PRODUCTION_DATABASE_URL');
  });
});

describe('URL option mistakes are usage errors (review 12 item 7)', () => {
  test.each([
    ['mongodb://localhost:27017/db?bogusOption=1', 'STORE_BAD_URL'],
    ['mongodb://localhost:99999/db', 'STORE_BAD_URL'],
    ['mysql://u:pw-SECRET@127.0.0.1:1/db?ssl=maybe', 'STORE_BAD_URL'],
  ])('%s: exit 2, %s', async (url, code) => {
    const run = await inCjs(['plan', '--url', url, '--models', 'models.cjs']);
    expect(run.stderr).toContain(`[${code}]`);
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).not.toContain('pw-SECRET');
    expect(run.code).toBe(2);
  });
});

describe('config shapes (finding 5)', () => {
  test.each([['store'], ['store-secrets'], ['store-dispose'], ['all']])('a factory may return %s', async (shape) => {
    const run = await inCjs(['plan'], { FIXTURE_SHAPE: shape });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('create table tokens');
  });

  test('anything else names the store and the accepted shapes (usage, exit 2)', async () => {
    const run = await inCjs(['plan'], { FIXTURE_SHAPE: 'wrong' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("[CLI_BAD_FACTORY_RESULT]: the factory of store 'main' returned an object with 'db'");
    expect(run.stderr).toContain('{ store, secrets, dispose }');
    expect(run.stderr).not.toContain('TypeError');
  });
});

describe('secrets (finding 6)', () => {
  test('a factory error quoting a URL prints no password; exit 5', async () => {
    const run = await inCjs(['plan'], { FIXTURE_SHAPE: 'throws' });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('postgres://app:****@db.internal');
    expect(run.stderr).not.toContain('factory-PW-secret');
  });

  test("a factory error: a password with '@' and ':', a query password, a Key=…; string (review 12 items 2, 14)", async () => {
    const message =
      'cannot reach postgres://app:p@ss:w0rd-SECRET@db.internal:5432/app, postgres://h/db?password=qs-SECRET ' +
      'or AccountEndpoint=https://a.documents.azure.com/;AccountKey=cs-SECRET;';
    const run = await inCjs(['plan', '--verbose'], { FIXTURE_SHAPE: 'throws', FIXTURE_THROW: message });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('postgres://app:****@db.internal');
    expect(run.stdout + run.stderr).not.toContain('SECRET');
    expect(run.stdout + run.stderr).not.toContain('w0rd');
  });

  test('a dispose() error prints no registered secret, even with --verbose', async () => {
    const run = await inCjs(['plan', '--verbose'], { FIXTURE_SHAPE: 'dispose-throws' });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('CLI_DISPOSE_FAILED');
    expect(run.stdout + run.stderr).not.toContain('cjs-fixture-SECRET');
  });

  test('an unknown URL is not echoed', async () => {
    const run = await inCjs(['plan', '--url', '//admin:hunter2@db/app', '--models', 'models.cjs']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CLI_UNKNOWN_URL');
    expect(run.stderr).not.toContain('hunter');
    expect(run.stderr).not.toContain('admin:');
  });
});

describe('connection failures (finding 7)', () => {
  test('a driver package that is not installed is named; exit 4', async () => {
    const run = await inCjs(['plan'], { FIXTURE_SHAPE: 'missing-driver' });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("[STORE_DRIVER_MISSING]: [main]: the driver package 'oracledb' is not installed");
    expect(run.stderr).toContain('npm install oracledb');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('exit codes, --version, EPIPE, colour (finding 8)', () => {
  test('drift (1), usage (2), model (3) are distinct', async () => {
    const db = path.join(cjs, 'drift.db');
    const drift = await inCjs(['plan', '--check'], { FIXTURE_DB: db });
    expect(drift.code).toBe(1);
    const model = await runCli(cli.main, path.join(__dirname, 'fixtures'), ['explain', 'broken.ts'], {
      LIFESPAN_UNDER_TEST: cli.index,
    });
    expect(model.code).toBe(3);
    const badUrlOption = await inCjs(['plan', '--url', 'sqlite:./x.db?ttl=sometimes', '--models', 'models.cjs']);
    expect(badUrlOption.code).toBe(2);
    const badCassandraUrl = await inCjs(['plan', '--url', 'cassandra://127.0.0.1', '--models', 'models.cjs']);
    expect(badCassandraUrl.code).toBe(2);
    const badFlag = await inCjs(['plan', '--frobnicate']);
    expect(badFlag.code).toBe(2);
  });

  test('--help documents the exit codes; --version prints the version', async () => {
    const help = await inCjs(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes:[\s\S]*1 +drift[\s\S]*2 +usage[\s\S]*3 +the model/);
    const version = await inCjs(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test('piped output is complete, and a pipe closed early ends quietly', () => {
    const pipe = (into: string) =>
      spawnSync('bash', ['-c', `node ${JSON.stringify(cli.main)} explain many.cjs --format markdown | ${into}`], {
        cwd: cjs,
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
    const whole = pipe('cat');
    expect(whole.stdout.length).toBeGreaterThan(100_000);
    expect(whole.stdout).toContain('table_399');
    const head = pipe('head -1');
    expect(head.stdout).toBe('| entity | store | collection | mechanism | TTL | counts from | on TTL change |\n');
    expect(head.stderr).toBe('');
  });

  test('colour is decided per stream: a terminal stdout does not colour a redirected stderr (review 12 item 16)', () => {
    const onTerminal = (command: string) =>
      spawnSync('script', ['-qec', command, '/dev/null'], {
        cwd: cjs,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', TERM: 'xterm' },
      });
    const node = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli.main)}`;
    const log = path.join(cjs, 'err.log');
    onTerminal(`${node} plan --url bogus://x --models models.cjs 2>${JSON.stringify(log)}`);
    const err = fs.readFileSync(log, 'utf8');
    expect(err).toContain('CLI_UNKNOWN_URL');
    expect(err).not.toContain('\x1b[');
    const stderrOnTerminal = onTerminal(`${node} plan --url bogus://x --models models.cjs | cat`);
    expect(stderrOnTerminal.stdout).toContain('CLI_UNKNOWN_URL');
    expect(stderrOnTerminal.stdout).toContain('\x1b[31m');
  });

  test('colour with FORCE_COLOR, none with NO_COLOR or --no-color', async () => {
    const db = ['--url', `sqlite:${path.join(cjs, 'colour.db')}?ttl=emulate`, '--models', 'models.cjs'];
    const coloured = await inCjs(['plan', ...db], { FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain('\u001b[');
    expect((await inCjs(['plan', ...db], { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toContain('\u001b[');
    expect((await inCjs(['plan', '--no-color', ...db], { FORCE_COLOR: '1' })).stdout).not.toContain('\u001b[');
  });
});

describe('safe apply outside a terminal (finding 1)', () => {
  test('apply without --yes applies nothing and exits 2 with a hint', async () => {
    const db = path.join(cjs, 'apply.db');
    const run = await inCjs(['apply'], { FIXTURE_DB: db });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('APPLY_NEEDS_CONSENT');
    expect(run.stderr).toContain('--yes');
    expect((await inCjs(['plan', '--check'], { FIXTURE_DB: db })).code).toBe(1);
    expect((await inCjs(['apply', '--yes'], { FIXTURE_DB: db })).code).toBe(0);
    expect((await inCjs(['plan', '--check'], { FIXTURE_DB: db })).code).toBe(0);
  });
});

describe('purge (issue 15 item 5)', () => {
  test('purges due rows from a config target; outside a terminal no line per batch', async () => {
    const db = path.join(cjs, 'purge.db');
    expect((await inCjs(['apply', '--yes'], { FIXTURE_DB: db })).code).toBe(0);
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const sqlite = new Database(db);
    const insert = sqlite.prepare('INSERT INTO tokens (id, issuedAt, expires_at) VALUES (?, 0, 1000)');
    sqlite.transaction(() => {
      for (let i = 0; i < 2500; i += 1) insert.run(`t${i}`);
    })();
    sqlite.close();
    const early = await inCjs(['purge', '--now', '1970-01-01T00:00:00.500Z'], { FIXTURE_DB: db });
    expect(early.stdout).toContain('main: 0 expired row(s) to purge');
    expect(early.stdout).toContain('main: purged 0 expired row(s)');
    const run = await inCjs(['purge', '--batch', '10'], { FIXTURE_DB: db });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('main: 2500 expired row(s) to purge');
    expect(run.stdout).toContain('main: purged 2500 expired row(s) in');
    expect(run.stdout.trim().split('\n').length).toBeLessThan(5);
  });

  test('a --now later than the database clock deletes no live row without --yes (review 12 item 18)', async () => {
    const db = path.join(cjs, 'purge-future.db');
    fs.rmSync(db, { force: true });
    expect((await inCjs(['apply', '--yes'], { FIXTURE_DB: db })).code).toBe(0);
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const live = () => {
      const sqlite = new Database(db);
      try {
        return (sqlite.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
      } finally {
        sqlite.close();
      }
    };
    const sqlite = new Database(db);
    const insert = sqlite.prepare('INSERT INTO tokens (id, issuedAt, expires_at) VALUES (?, 0, ?)');
    for (let i = 0; i < 3; i += 1) insert.run(`live${i}`, Date.now() + 3_600_000);
    insert.run('due', 1000);
    sqlite.close();
    const future = new Date(Date.now() + 7_200_000).toISOString();
    const refused = await inCjs(['purge', '--now', future], { FIXTURE_DB: db });
    expect(live()).toBe(4);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('[CLI_PURGE_LIVE_ROWS]');
    expect(refused.stderr).toContain('3 row(s) that are still live');
    expect((await inCjs(['purge', '--now', new Date().toISOString()], { FIXTURE_DB: db })).code).toBe(0);
    expect(live()).toBe(3);
    expect((await inCjs(['purge', '--now', future, '--yes'], { FIXTURE_DB: db })).code).toBe(0);
    expect(live()).toBe(0);
  });
});

describe('offline review: snapshot and diff (finding 4)', () => {
  test('diff --check fails when the model changed and the snapshot was not; diff shows the change without any store', async () => {
    const written = await inCjs(['snapshot', '--models', 'models.cjs', '--store', 'cosmos,cassandra,relational']);
    expect(written.code).toBe(0);
    expect((await inCjs(['diff', '--check', '--models', 'models.cjs'])).code).toBe(0);
    const changed = await inCjs(['diff', '--check', '--models', 'models.cjs', '--format', 'markdown'], {
      FIXTURE_TTL: '5m',
    });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('lifespan snapshot');
    expect(changed.stdout).toContain('15m → 5m (900 s → 300 s)');
    expect(changed.stdout).toMatch(/\| `cosmos` .*\| Token \|.*\| retroactive \| at apply \|/);
    expect(changed.stdout).toMatch(/\| `cassandra` .*\| new-writes-only \|/);
    expect(changed.stdout).toContain('plan --counts');
  });

  test('diff --base <git ref> loads the models at that ref', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: cjs, stdio: 'pipe' });
    fs.rmSync(path.join(cjs, '.git'), { recursive: true, force: true });
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', 'models.cjs', 'package.json');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base');
    const source = fs.readFileSync(path.join(cjs, 'models.cjs'), 'utf8');
    fs.writeFileSync(path.join(cjs, 'models.cjs'), source.replace("?? '15m'", "?? '2h'"));
    const run = await inCjs(['diff', '--base', 'HEAD', '--models', 'models.cjs', '--store', 'cosmos']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('TTL 15m → 2h (900 s → 7200 s)');
    expect(fs.readdirSync(cjs).filter((f) => f.startsWith('.lifespan-base-'))).toEqual([]);
  });
});
