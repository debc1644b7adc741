import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { runCli } from './fixture-project';
import { projectFrom } from './first-hour-projects';
import { configSource, INIT_STORES, MODELS_EXAMPLE } from '../../src/cli/init/store-templates';

/**
 * Issue 24, point 7, through the built CLI in fixture projects: `lifespan init` writes a config
 * that loads and plans on the real stores, never overwrites, and says what it wrote; each
 * command's --help has examples; docs/migrations.md shows init's factory for every store.
 */
let cli: ReturnType<typeof buildCli>;
beforeAll(() => {
  cli = buildCli('first-hour-init-cli');
}, 180_000);

const run = (cwd: string, args: string[], env?: NodeJS.ProcessEnv) => runCli(cli.main, cwd, args, env);

/** A project with nothing of lifespan in it yet. */
function emptyProject(base: 'cjs' | 'esm', name: string): string {
  const project = projectFrom(cli.outDir, base, name);
  for (const entry of fs.readdirSync(project)) {
    if (!['package.json', 'tsconfig.json', 'node_modules'].includes(entry)) {
      fs.rmSync(path.join(project, entry), { recursive: true, force: true });
    }
  }
  return project;
}

const STORE_ENV = {
  // The harness sets NO_COLOR and FORCE_COLOR both; a driver's colour check makes Node warn of it.
  NODE_NO_WARNINGS: '1',
  DATABASE_URL: process.env.PG_URL,
  REDIS_URL: process.env.REDIS_URL,
  MARIADB_URL: process.env.MYSQL_URL,
};

describe('lifespan init', () => {
  test.each([['esm'], ['cjs']] as const)(
    '%s project: config, example model, snapshot and CI job; the config plans on SQLite, PostgreSQL, MariaDB and Redis',
    async (base) => {
      const project = emptyProject(base, `init-${base}`);
      const init = await run(project, ['init', '--store', 'sqlite,postgres,mariadb,redis']);
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      for (const file of [
        'src/models.ts',
        'lifespan.config.ts',
        '.github/workflows/lifespan.yml',
        'lifespan.snapshot.json',
      ]) {
        expect(init.stdout).toContain(`wrote ${file}`);
        expect(fs.existsSync(path.join(project, file))).toBe(true);
      }
      expect(init.stdout).toContain('next: npm install lifespan-orm knex better-sqlite3 pg mysql2 redis');
      const snapshot = JSON.parse(fs.readFileSync(path.join(project, 'lifespan.snapshot.json'), 'utf8')) as {
        stores: string[];
      };
      expect(snapshot.stores).toEqual(['redis', 'relational']);
      const ci = fs.readFileSync(path.join(project, '.github/workflows/lifespan.yml'), 'utf8');
      expect(ci).toContain('npx lifespan diff --check');
      expect(ci).toMatch(/lifespan diff --base .* --format markdown > ttl-change\.md/);
      expect(ci).toContain('GITHUB_STEP_SUMMARY');
      // The written config is typed and loads: plan reaches every configured store.
      const plan = await run(project, ['plan'], { ...STORE_ENV, SQLITE_FILE: path.join(project, 'app.db') });
      expect(plan.stderr).toBe('');
      expect(plan.code).toBe(0);
      for (const name of ['sqlite', 'postgres', 'mariadb', 'redis']) expect(plan.stdout).toContain(`${name}: `);
      // The snapshot init wrote is the one diff --check expects.
      expect((await run(project, ['diff', '--check'])).code).toBe(0);
    },
  );

  test('a second init overwrites nothing and says what it kept', async () => {
    const project = emptyProject('esm', 'init-twice');
    expect((await run(project, ['init'])).code).toBe(0);
    fs.writeFileSync(path.join(project, 'lifespan.config.ts'), '// mine\n');
    const again = await run(project, ['init', '--store', 'redis']);
    expect(again.stdout).toContain('kept lifespan.config.ts (exists; not overwritten)');
    expect(again.stdout).toContain('kept src/models.ts (exists)');
    expect(again.stdout).toContain('kept lifespan.snapshot.json (exists; not overwritten)');
    expect(again.stdout).not.toContain('wrote');
    expect(fs.readFileSync(path.join(project, 'lifespan.config.ts'), 'utf8')).toBe('// mine\n');
  });

  test('an unknown store is a usage error listing the known ones', async () => {
    const init = await run(emptyProject('cjs', 'init-bad'), ['init', '--store', 'sqlite,oracle']);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain("init knows no store 'oracle'");
    expect(init.stderr).toContain('sqlite,postgres,mariadb,mysql,redis,mongodb,cassandra,cosmos');
  });
});

test.each(['init', 'explain', 'plan', 'apply', 'purge', 'snapshot', 'diff'])(
  'lifespan %s --help shows examples',
  async (command) => {
    const help = await run(cli.outDir, [command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`Examples:\\n  lifespan ${command}`));
  },
);

describe('the config of every store, as init writes it and docs/migrations.md shows it', () => {
  test('docs/migrations.md holds the config init writes for each store', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'migrations.md'), 'utf8');
    for (const store of INIT_STORES)
      expect(doc).toContain(`\`\`\`ts\n${configSource([store], './src/models.js')}\`\`\``);
  });

  // @azure/cosmos ships separate ESM and CommonJS declarations; lifespan-orm's are CommonJS, so an
  // ES-module project sees two Database types (a packaging limit of the SDK pair, not of the config).
  test.each([
    ['esm', INIT_STORES.filter((s) => s !== 'cosmos')],
    ['cjs', INIT_STORES],
  ] as const)(
    '%s project: the store configs type-check against the built package (%j)',
    (base, stores) => {
      const project = emptyProject(base, `init-types-${base}`);
      fs.mkdirSync(path.join(project, 'src'));
      fs.writeFileSync(path.join(project, 'src', 'models.ts'), MODELS_EXAMPLE);
      for (const store of stores)
        fs.writeFileSync(path.join(project, `${store}.config.ts`), configSource([store], './src/models.js'));
      // The README's resolution (node16): subpath exports such as lifespan-orm/relational resolve.
      const options = ['--noEmit', '--types', 'node', '--module', 'node16', '--moduleResolution', 'node16'];
      const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', '.', ...options], {
        cwd: project,
        encoding: 'utf8',
      });
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    },
    120_000,
  );
});
