import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { buildCli, ROOT } from './build-cli';

let cli: ReturnType<typeof buildCli>;

beforeAll(() => {
  cli = buildCli('explain-cli');
}, 120_000);

function lifespan(...args: string[]) {
  const result = spawnSync(process.execPath, [cli.main, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LIFESPAN_UNDER_TEST: cli.index },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

test('explains a .js models file (CommonJS, fluent)', () => {
  const { code, stdout, stderr } = lifespan('explain', fixture('models.js'), '--store', 'cassandra');
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain('tokens:');
  expect(stdout).toContain('default_time_to_live = 900');
});

test('explains a .mjs models file (default export)', () => {
  const { code, stdout } = lifespan('explain', fixture('models.mjs'), '--store', 'mongodb', '--format', 'json');
  expect(code).toBe(0);
  const report = JSON.parse(stdout) as { entries: Array<{ store: string; collection: string; seconds: number }> };
  expect(report.entries).toEqual([expect.objectContaining({ store: 'mongodb', collection: 'tokens', seconds: 900 })]);
});

test('explains a decorated .ts models file with its decorator metadata kept', () => {
  // Session.id and Session.hits have no initialiser: only design:type can give their types.
  const { code, stdout, stderr } = lifespan('explain', fixture('decorated.ts'), '--store', 'mongodb,relational');
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toMatch(/sessions: documents expire 3600s after lastSeenAt/);
  expect(stdout).toContain('== relational ==');
});

test('markdown output', () => {
  const { code, stdout } = lifespan('explain', fixture('models.js'), '--format', 'markdown');
  expect(code).toBe(0);
  expect(stdout).toMatch(/^\| entity \| store \|/);
  expect(stdout).toContain('## cosmos');
});

test('model errors exit 3 and list every problem', () => {
  const { code, stdout, stderr } = lifespan('explain', fixture('broken.ts'));
  expect(code).toBe(3);
  expect(stdout).toBe('');
  expect(stderr).toContain('The model has 2 problems');
  expect(stderr).toContain('NoKey: has no key');
  expect(stderr).toContain('TTL 0 is zero');
});

test.each([
  [['explain'], /no model to work with|CLI_NO_MODEL/],
  [['explain', 'missing-file.ts'], /no file at/],
  [['explain', fixture('models.js'), '--store', 'dynamodb'], /unknown store 'dynamodb'/],
  [['explain', fixture('models.js'), '--format', 'yaml'], /unknown format 'yaml'/],
  [['frobnicate'], /unknown command/],
])('usage errors exit 2: %p', (args, message) => {
  const { code, stderr } = lifespan(...args);
  expect(code).toBe(2);
  expect(stderr).toMatch(message);
});
