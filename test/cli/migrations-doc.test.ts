import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildProgram } from '../../src/cli/main';
import { EXIT_CODE_HELP } from '../../src/cli/exit-codes';
import { compareSnapshots } from '../../src/cli/review/compare';
import { snapshotOf } from '../../src/cli/review/snapshot-file';
import { renderPlans } from '../../src/explain/render-plan';
import type { Model } from '../../src/model/types';
import { STORE_NAMES } from '../../src/providers/registry';

/**
 * docs/migrations.md shows the pull-request workflow with the CLI as it is: its commands and flags
 * exist, its diff example is the output diff gives, its exit codes are the program's.
 */
const DOC = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'migrations.md'), 'utf8');
const io = { out: () => undefined, err: () => undefined, isTty: false, confirm: async () => false };
const program = buildProgram(io, () => undefined);

/** The fixture model of the migration tests (one Session entity), at the TTL given. */
function sessions(ttl: string): Model {
  process.env.LIFESPAN_UNDER_TEST = require.resolve('../../src/index');
  process.env.E2E_COLLECTION = 'sessions';
  process.env.E2E_TTL = ttl;
  let model: Model | undefined;
  jest.isolateModules(() => {
    model = (require('./fixtures/ttl-model.js') as { model: Model }).model;
  });
  return model!;
}

test('every `lifespan <command> --flag` in the doc is a command and option of the CLI', () => {
  const uses = [...DOC.matchAll(/lifespan ([a-z]+)((?: (?:--[a-z-]+|<[^>]+>|[a-z0-9./:-]+))*)/g)];
  expect(uses.length).toBeGreaterThan(10);
  for (const [, name, rest] of uses) {
    const command = program.commands.find((c) => c.name() === name);
    if (command === undefined) continue; // prose like "lifespan extracts"
    const known = command.options.map((o) => o.long);
    for (const flag of rest!.match(/--[a-z-]+/g) ?? [])
      expect([name, flag, known.includes(flag)]).toEqual([name, flag, true]);
  }
  for (const name of ['snapshot', 'diff', 'plan', 'apply']) expect(DOC).toContain(`npx lifespan ${name}`);
  for (const flag of [
    'diff --check',
    'diff --base origin/main --format markdown',
    'plan --counts',
    '--yes',
    '--allow-retroactive',
  ])
    expect(DOC).toContain(flag);
});

const EMULATED = {
  stores: STORE_NAMES,
  relationalTtl: 'emulate',
  relationalDialect: 'sqlite',
  source: 'flags',
} as const;

test('the diff example rows are what diff prints, per-document family included', () => {
  const before = snapshotOf(sessions('1h'), EMULATED);
  const after = snapshotOf(sessions('5m'), EMULATED);
  const rendered = renderPlans(compareSnapshots(before, after, 'snapshot lifespan.snapshot.json'), 'markdown', {});
  const rows = rendered.split('\n').filter((l) => l.startsWith('| `'));
  expect(rows).toHaveLength(STORE_NAMES.length);
  for (const row of rows) expect(DOC).toContain(row);
  expect(DOC).toContain('retroactive, per-document');
  expect(DOC).toContain('new-writes-only, per-document');
});

test('the exit-code table has every code of the program, with the same meaning word', () => {
  const codes = [...EXIT_CODE_HELP.matchAll(/^ {2}(\d+) +(\S+)/gm)].map(([, code, word]) => [code!, word!]);
  expect(codes.length).toBeGreaterThan(5);
  for (const [code, word] of codes) expect(DOC).toMatch(new RegExp(`^\\| ${code} \\| ${word!.replace(/:$/, '')}`, 'm'));
});
