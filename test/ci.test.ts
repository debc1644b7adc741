/**
 * What CI checks beyond jest: jest transpiles each file alone (isolatedModules), so only tsc sees
 * type errors in the tests, and only eslint/prettier see lint. These tests pin that .ci/run runs
 * both on a program that holds every test file, and that a CI run cannot be narrowed to some stores.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { LOCAL_STORES, isCi, selectedStores } from './harness/stores';

const root = path.resolve(__dirname, '..');

/** The commands .ci/run executes, in order (comments and blank lines dropped). */
function ciCommands(): string[] {
  return fs
    .readFileSync(path.join(root, '.ci/run'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function parsedTsconfig(): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json did not parse');
  return parsed;
}

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // A fixture project with its own tsconfig.json (test/cli/projects/*) is compiled by its own
    // settings in the tests that run it, not by the suite's program.
    if (entry.isDirectory()) {
      const ownProject = fs.existsSync(path.join(full, 'tsconfig.json'));
      return entry.name === '__snapshots__' || ownProject ? [] : testFiles(full);
    }
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('CI type-checks and lints the tests', () => {
  test('.ci/run runs the typecheck and the lint before the suite, and npm test is the suite', () => {
    const commands = ciCommands();
    const at = (command: string) => commands.indexOf(command);
    expect(at('npm run typecheck')).toBeGreaterThan(-1);
    expect(at('npm run lint')).toBeGreaterThan(-1);
    expect(at('npm test')).toBeGreaterThan(at('npm run typecheck'));
    expect(at('npm test')).toBeGreaterThan(at('npm run lint'));
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['typecheck']).toBe('tsc -p tsconfig.json --noEmit');
    expect(scripts['lint']).toMatch(/^eslint \. && prettier --check .*"test\/\*\*\/\*\.ts"/);
  });

  test('the typecheck program holds every .ts file under test/', () => {
    const program = new Set(parsedTsconfig().fileNames.map((f) => path.resolve(f)));
    const missing = testFiles(path.join(root, 'test')).filter((f) => !program.has(f));
    expect(missing).toEqual([]);
  });

  test('under the typecheck options, a type error in a test file is reported', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-typecheck-'));
    try {
      const file = path.join(dir, 'checked-by-the-compiler.test.ts');
      fs.writeFileSync(file, "const n: number = 'not a number';\nexport default n;\n");
      const { options } = parsedTsconfig();
      const program = ts.createProgram([file], { ...options, noEmit: true, types: [], rootDir: dir });
      const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors).toEqual([expect.stringContaining("Type 'string' is not assignable to type 'number'")]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a CI run covers every local store', () => {
  test('with CI set, LIFESPAN_STORES that leaves a store out fails the run, naming what it leaves out', () => {
    expect(() => selectedStores({ CI: 'true', LIFESPAN_STORES: 'sqlite' })).toThrow(
      /LIFESPAN_STORES=sqlite leaves out postgres, mariadb, cassandra, cosmos, redis, cassandra-cluster, redis-cluster in a CI run/,
    );
    expect(() => selectedStores({ CI: '1', LIFESPAN_STORES: 'sqlite,postgres,mariadb,cassandra' })).toThrow(/cosmos/);
  });

  test('with CI set, every store (named, all, or unset) runs; without CI narrowing is allowed', () => {
    expect(selectedStores({ CI: 'true' })).toEqual(LOCAL_STORES);
    expect(selectedStores({ CI: 'true', LIFESPAN_STORES: 'all' })).toEqual(LOCAL_STORES);
    expect(selectedStores({ CI: 'true', LIFESPAN_STORES: LOCAL_STORES.join(',') })).toEqual(LOCAL_STORES);
    expect(selectedStores({ LIFESPAN_STORES: 'sqlite' })).toEqual(['sqlite']);
    expect(selectedStores({ CI: 'false', LIFESPAN_STORES: 'sqlite' })).toEqual(['sqlite']);
    expect(isCi({ CI: '0' })).toBe(false);
    expect(isCi({ CI: 'github' })).toBe(true);
  });

  test('.ci/run clears the variables that narrow a run or carry an earlier run state, and sets CI', () => {
    const commands = ciCommands();
    const unset = commands.find((c) => c.startsWith('unset '))?.split(/\s+/) ?? [];
    expect(unset).toEqual(
      expect.arrayContaining([
        'LIFESPAN_STORES',
        'LIFESPAN_STORE_STATUS',
        'LIFESPAN_PG_ADMIN_URL',
        'LIFESPAN_MYSQL_ADMIN_URL',
      ]),
    );
    expect(commands.indexOf(commands.find((c) => c.startsWith('unset ')) ?? '')).toBeLessThan(
      commands.indexOf('npm test'),
    );
    expect(commands).toContain('export CI="${CI:-true}"');
  });
});
