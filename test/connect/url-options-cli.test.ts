/**
 * `lifespan plan --url` through the built CLI, as a user runs it: a URL option lifespan does not
 * know, and a relational URL without a database, stop the run with a usage error (exit 2) before
 * anything is opened, naming the option meant, and never printing the password.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli } from '../cli/build-cli';
import { fixtureProject, runCli } from '../cli/fixture-project';

let cli: ReturnType<typeof buildCli>;
let project: string;
let folder: string;
beforeAll(() => {
  cli = buildCli('url-options-cli');
  project = fixtureProject(cli.outDir, 'cjs');
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-url-options-'));
}, 180_000);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const plan = (url: string) => runCli(cli.main, project, ['plan', '--url', url, '--models', 'models.cjs']);

describe('lifespan plan --url with a URL option mistake', () => {
  test.each([
    ['?tll=emulate', 'tll', 'did you mean ttl?'],
    ['?ttl=emulate&foo=bar', 'foo', 'takes ttl=ignore|emulate|reject'],
  ])('sqlite:<file>%s: exit 2, STORE_BAD_URL naming the option', async (query, option, said) => {
    const run = await plan(`sqlite:${path.join(folder, 'app.db')}${query}`);
    expect(run.stderr).toContain('[STORE_BAD_URL]');
    expect(run.stderr).toContain(`unknown option '${option}'`);
    expect(run.stderr).toContain(said);
    expect(run.code).toBe(2);
    // Refused before the store was opened: SQLite did not create the file.
    expect(fs.existsSync(path.join(folder, 'app.db'))).toBe(false);
  });

  test('redis://…/0?prefx=app: is refused, not run without a prefix', async () => {
    const run = await plan('redis://:pw-SECRET@127.0.0.1:6379/0?prefx=app:');
    expect(run.stderr).toContain('[STORE_BAD_URL]');
    expect(run.stderr).toContain('did you mean prefix?');
    expect(run.stderr).not.toContain('pw-SECRET');
    expect(run.code).toBe(2);
  });

  test('a PostgreSQL URL without a database is refused with what to add, not run on the default database', async () => {
    const run = await plan('postgres://lifespan:pw-SECRET@127.0.0.1:5432');
    expect(run.stderr).toContain('[STORE_BAD_URL]');
    expect(run.stderr).toContain('names no database');
    expect(run.stderr).toContain('add the database after the host');
    expect(run.stderr).not.toContain('pw-SECRET');
    expect(run.code).toBe(2);
  });

  test.each([
    'postgres://lifespan:Tr0ub?Secr3tPart=1@127.0.0.1:5432/app',
    'redis://u:Tr0ub?Secr3tPart&x=1@127.0.0.1:6379/0',
  ])('a password holding ? (%s) is refused, and no part of it is printed', async (url) => {
    const run = await plan(url);
    expect(run.stderr).toContain('[STORE_BAD_URL]');
    expect(run.stderr).toContain('%3F');
    expect(`${run.stdout} ${run.stderr}`).not.toMatch(/Tr0ub|Secr3t/);
    expect(run.code).toBe(2);
  });
});

describe('only declared secrets are masked', () => {
  test('?insecureAuth=true on a MariaDB URL leaves every "true" of explain --format json as it is', async () => {
    const url = new URL(process.env.MYSQL_URL ?? '');
    url.searchParams.set('insecureAuth', 'true');
    const run = await runCli(cli.main, project, [
      'explain',
      '--format',
      'json',
      '--url',
      url.toString(),
      '--models',
      'models.cjs',
    ]);
    expect(run.stdout).not.toContain('****');
    expect(run.stdout).toMatch(/\btrue\b/);
    expect(() => JSON.parse(run.stdout) as unknown).not.toThrow();
  });
});
