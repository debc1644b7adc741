import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { runCli, type CliRun } from './fixture-project';
import { projectFrom } from './first-hour-projects';

/**
 * Issue 24, points 8 and 9, through the built CLI as a subprocess in fixture projects on SQLite:
 * an interrupted purge reports and exits 130; hints in the words of the reader (flags and URL
 * options for the CLI); every apply ends with its outcome; exit codes; explain cites its source;
 * exact fractions; MODEL_NO_TYPE for keys and nullable members.
 */
let cli: ReturnType<typeof buildCli>;
let cjs: string;
beforeAll(() => {
  cli = buildCli('first-hour-words-cli');
  cjs = projectFrom(cli.outDir, 'cjs', 'words');
}, 180_000);

const inCjs = (args: string[], env?: NodeJS.ProcessEnv) => runCli(cli.main, cjs, args, env);

/** Runs the CLI and sends `signal` once stdout shows `when`; resolves with what it printed. */
function interruptWhen(args: string[], env: NodeJS.ProcessEnv, when: string, signal: NodeJS.Signals): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.main, ...args], {
      cwd: cjs,
      env: { ...process.env, NO_COLOR: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!sent && stdout.includes(when)) {
        sent = true;
        // A moment later, so the purge is inside its batches.
        setTimeout(() => child.kill(signal), 300);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('point 8: an interrupted purge reports', () => {
  test.each([['SIGINT'], ['SIGTERM']] as const)(
    '%s: the batch ends, the count so far is printed, exit 130; a second run finishes',
    async (signal) => {
      const db = path.join(cjs, `interrupted-${signal}.db`);
      expect((await inCjs(['apply', '--yes'], { FIXTURE_DB: db })).code).toBe(0);
      const Database = require('better-sqlite3') as typeof import('better-sqlite3');
      const sqlite = new Database(db);
      const insert = sqlite.prepare('INSERT INTO tokens (id, issuedAt, expires_at) VALUES (?, 0, 1000)');
      const total = 20_000;
      sqlite.transaction(() => {
        for (let i = 0; i < total; i += 1) insert.run(`t${i}`);
      })();
      sqlite.close();
      const first = await interruptWhen(
        ['purge', '--batch', '1'],
        { FIXTURE_DB: db },
        'expired row(s) to purge',
        signal,
      );
      expect(first.code).toBe(130);
      const said = /interrupted \((SIG\w+)\): main: purged (\d+) expired row\(s\) in (\d+) batch\(es\) so far/.exec(
        first.stderr,
      );
      expect(said?.[1]).toBe(signal);
      expect(first.stderr).toContain('run lifespan purge again to continue');
      const purged = Number(said?.[2]);
      expect(purged).toBeGreaterThan(0);
      expect(purged).toBeLessThan(total);
      const left = new Database(db);
      const count = (left.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
      left.close();
      // The report is exact: what it says was purged is gone, nothing more.
      expect(count).toBe(total - purged);
      const second = await inCjs(['purge'], { FIXTURE_DB: db });
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`main: purged ${total - purged} expired row(s)`);
    },
    240_000,
  );
});

describe('point 9: words for the reader in front of them', () => {
  test('a conflict step names --allow-destructive; apply --yes with only that conflict ends with its outcome', async () => {
    const db = path.join(cjs, 'conflict.db');
    const emulated = `sqlite:${db}?ttl=emulate`;
    expect((await inCjs(['apply', '--yes', '--url', emulated, '--models', 'models.cjs'])).code).toBe(0);
    const plan = await inCjs(['plan', '--url', `sqlite:${db}`, '--models', 'models.cjs']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('plan with --allow-destructive to drop it');
    expect(plan.stdout).not.toContain('allowDestructive');
    const apply = await inCjs(['apply', '--yes', '--url', `sqlite:${db}`, '--models', 'models.cjs']);
    expect(apply.code).toBe(0);
    expect(apply.stdout.trim().split('\n').pop()).toMatch(
      /^nothing applied to sqlite:.*: only 1 non-blocking conflict\(s\), left as is$/,
    );
    const again = await inCjs(['apply', '--yes', '--url', emulated, '--models', 'models.cjs']);
    expect(again.stdout.trim().split('\n').pop()).toMatch(/^nothing to apply to sqlite:.*: it matches the model$/);
  });

  test('PURGE_NOT_EMULATED tells a --url user the URL option', async () => {
    const db = path.join(cjs, 'ignored.db');
    const purge = await inCjs(['purge', '--url', `sqlite:${db}`, '--models', 'models.cjs']);
    expect(purge.stderr).toContain('[PURGE_NOT_EMULATED]');
    expect(purge.stderr).toContain('add ?ttl=emulate to the --url');
    expect(purge.stderr).not.toContain('create the RelationalStore');
  });

  test('DEMO_DRIVER_MISSING exits 4, as every missing driver does', async () => {
    // The build outside the repository, with every package but the SQLite drivers.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-no-sqlite-'));
    try {
      const dist = path.join(root, 'dist');
      fs.cpSync(cli.outDir, dist, { recursive: true, filter: (f) => !f.includes(`${path.sep}projects`) });
      fs.mkdirSync(path.join(root, 'node_modules'));
      const repoModules = path.join(cli.outDir, '..', '..', 'node_modules');
      for (const name of fs.readdirSync(repoModules)) {
        if (!['knex', 'better-sqlite3', '.bin'].includes(name)) {
          fs.symlinkSync(path.join(repoModules, name), path.join(root, 'node_modules', name));
        }
      }
      const demo = await runCli(path.join(dist, 'cli', 'main.js'), root, [
        'demo',
        '--file',
        path.join(root, 'demo.db'),
      ]);
      expect(demo.stderr).toContain('[DEMO_DRIVER_MISSING]');
      expect(demo.code).toBe(4);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('explain cites its source, with no maintainer notes', async () => {
    const run = await inCjs(['explain', 'models.cjs', '--store', 'cosmos,mongodb']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('per the Azure Cosmos DB documentation');
    expect(run.stdout).toContain('per the MongoDB manual');
    expect(run.stdout).not.toMatch(/to verify on a real account|not yet confirmed/);
  });

  test('a parts object whose exact total is not whole shows the exact total, not the rounded float', async () => {
    fs.writeFileSync(
      path.join(cjs, 'fraction.cjs'),
      `const { ModelBuilder } = require('lifespan-orm');
class Token { constructor() { this.id = ''; this.issuedAt = new Date(0); } }
exports.model = new ModelBuilder()
  .entity(Token, (e) => e.key((t) => t.id, { type: 'string' }).createdAt((t) => t.issuedAt).timeToLive({ hours: 0.0275000000000001 }))
  .build();
`,
    );
    const run = await inCjs(['explain', 'fraction.cjs', '--store', 'relational']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('comes to 99.00000000000036 s, not a whole number of seconds');
  });

  test('MODEL_NO_TYPE: a key is told the key form; a member starting null is told nullable: true', async () => {
    fs.writeFileSync(
      path.join(cjs, 'untyped.cjs'),
      `const { ModelBuilder } = require('lifespan-orm');
class Note { constructor() { this.id = undefined; this.text = null; } }
exports.model = new ModelBuilder().entity(Note, (e) => e.key((n) => n.id).field((n) => n.text)).build();
`,
    );
    const run = await inCjs(['explain', 'untyped.cjs', '--store', 'relational']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /Note\.id: member has no type[^\n]*@Key\(\{ type: 'string' \}\)[^\n]*\.key\(x => x\.member, \{ type: 'string' \}\)/,
    );
    expect(run.stderr).toMatch(/Note\.text: member has no type[^\n]*@Field\(\{ type: 'string', nullable: true \}\)/);
  });

  test("the README's install table has a Redis row", () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toMatch(/^\| Redis +\| `npm install lifespan-orm redis` +\|$/m);
  });
});
