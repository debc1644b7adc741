import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { fixtureProject, runCli } from './fixture-project';

/**
 * Live `explain --format markdown` with two SQLite stores of one kind in a config (issue 12,
 * finding 3): every row and heading names the config key and the masked target, and durations
 * read `15m (900 s)`.
 */
const SECRET = 'tw0-SQLITE-secret';
let cli: ReturnType<typeof buildCli>;
let project: string;
beforeAll(() => {
  cli = buildCli('explain-two-sqlite-cli');
  project = fixtureProject(cli.outDir, 'cjs');
  fs.writeFileSync(
    path.join(project, 'two-sqlite.config.cjs'),
    `const { RelationalStore } = require('lifespan-orm/relational');
const knex = require('knex');
const { model } = require('./models.cjs');

// The file names carry a registered secret, so the target shown must be masked.
function sqlite(file) {
  return () => {
    const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    const store = new RelationalStore({ knex: db, ttl: 'emulate' });
    return { store, secrets: ['${SECRET}'], dispose: () => db.destroy() };
  };
}

module.exports = {
  model,
  stores: {
    primary: sqlite(${JSON.stringify(path.join(project, `primary-${SECRET}.db`))}),
    archive: sqlite(${JSON.stringify(path.join(project, `archive-${SECRET}.db`))}),
  },
};
`,
  );
}, 120_000);

test('rows and headings name each config key and target; durations readable and exact', async () => {
  const run = await runCli(cli.main, project, ['explain', '--config', 'two-sqlite.config.cjs', '--format', 'markdown']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).not.toContain(SECRET);
  const lines = run.stdout.split('\n');
  const target = (key: string) =>
    `\`${key}\` (relational: better-sqlite3 ${path.join(project, `${key}-****.db`)} (ttl: emulate))`;

  // The summary table: one row per store, each naming its key and masked target, duration readable.
  const rows = lines.filter((l) => l.startsWith('| Token |'));
  expect(rows).toEqual([
    `| Token | ${target('primary')} | tokens | emulated | 15m (900 s) | last-write | new-writes-only |`,
    `| Token | ${target('archive')} | tokens | emulated | 15m (900 s) | last-write | new-writes-only |`,
  ]);
  // One section heading per store, in the explain part and again in the drift part.
  for (const key of ['primary', 'archive']) {
    expect(lines.filter((l) => l === `## ${target(key)}`)).toHaveLength(2);
  }
  // The drift table's rows are told apart the same way.
  const drift = lines.filter((l) => l.includes('| Token | none → 15m (none → 900 s) |'));
  expect(drift.map((l) => l.split(' | ')[0])).toEqual([`| ${target('primary')}`, `| ${target('archive')}`]);
});
