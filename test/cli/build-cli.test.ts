import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { buildKey, sharedBuild } from './build-cli';

/**
 * The CLI tests share one tsc build per state of the build inputs: a source changed since the
 * build must give another key, or a CLI test would run yesterday's code.
 */
describe('the shared CLI build is keyed by its inputs', () => {
  let root = '';
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-build-key-'));
    fs.mkdirSync(path.join(root, 'src', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(root, 'tsconfig.json'), '{}');
    fs.writeFileSync(path.join(root, 'tsconfig.build.json'), '{ "extends": "./tsconfig.json" }');
    fs.writeFileSync(path.join(root, 'src', 'index.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, 'src', 'cli', 'main.ts'), 'export {};\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('the same inputs give the same key', () => {
    expect(buildKey(root)).toBe(buildKey(root));
  });

  test.each([
    ['a source edited', (dir: string) => fs.appendFileSync(path.join(dir, 'src', 'cli', 'main.ts'), '// changed\n')],
    ['a source added', (dir: string) => fs.writeFileSync(path.join(dir, 'src', 'cli', 'more.ts'), 'export {};\n')],
    ['a source deleted', (dir: string) => fs.rmSync(path.join(dir, 'src', 'index.ts'))],
    [
      'a source renamed',
      (dir: string) => fs.renameSync(path.join(dir, 'src', 'index.ts'), path.join(dir, 'src', 'main.ts')),
    ],
    ['a compiler option changed', (dir: string) => fs.writeFileSync(path.join(dir, 'tsconfig.json'), '{ "x": 1 }')],
    [
      'the build config changed',
      (dir: string) => fs.writeFileSync(path.join(dir, 'tsconfig.build.json'), '{ "include": ["src"] }'),
    ],
  ])('%s gives another key', (_what, change) => {
    const before = buildKey(root);
    change(root);
    expect(buildKey(root)).not.toBe(before);
  });
});

/**
 * The lock, the leftovers and the pruning of the shared build, with a fake build step (no tsc).
 * A jest worker killed during the build (Ctrl-C, a CI timeout, the OOM killer) runs no `finally`:
 * a child process that kills itself inside the build step leaves exactly what such a worker leaves.
 */
describe('the shared CLI build survives interrupted and concurrent builds', () => {
  const WAIT = { pauseMs: 10, staleLockMs: 60_000, giveUpMs: 3_000 };
  let dist = '';
  let compiled = '';
  beforeAll(() => {
    compiled = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-build-cli-js-')), 'build-cli.js');
    const source = fs.readFileSync(path.join(__dirname, 'build-cli.ts'), 'utf8');
    const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 };
    fs.writeFileSync(compiled, ts.transpileModule(source, { compilerOptions: options }).outputText);
  });
  afterAll(() => fs.rmSync(path.dirname(compiled), { recursive: true, force: true }));
  beforeEach(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-build-dist-'));
  });
  afterEach(() => fs.rmSync(dist, { recursive: true, force: true }));

  /** A build step writing one file that names who built it. */
  const fakeBuild = (by: string) => (outDir: string) => {
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'index.js'), by);
  };
  const builtBy = (build: string) => fs.readFileSync(path.join(build, 'index.js'), 'utf8');
  const leftovers = () => fs.readdirSync(dist).filter((entry) => entry.endsWith('.tmp'));

  /** Runs `sharedBuild` in a child process with `extra` options; `step` is the child's build step. */
  function childScript(key: string, step: string, extra = ''): string {
    return `require(${JSON.stringify(compiled)}).sharedBuild({ dist: ${JSON.stringify(dist)}, key: '${key}', ${extra}
      build(outDir) { const fs = require('fs'); ${step} } });`;
  }
  const KILLED_MID_BUILD =
    "fs.mkdirSync(outDir); fs.writeFileSync(outDir + '/half.js', ''); process.kill(process.pid, 'SIGKILL');";

  const SLOW_BUILD =
    "fs.mkdirSync(outDir); require('child_process').execSync('sleep 1'); fs.writeFileSync(outDir + '/index.js', 'the child');";

  /** A builder killed during its build, as a jest worker is; returns its (now dead) pid. */
  function killedMidBuild(key: string, extra = ''): number {
    const child = spawnSync(process.execPath, ['-e', childScript(key, KILLED_MID_BUILD, extra)]);
    expect(child.signal).toBe('SIGKILL');
    return child.pid;
  }

  test('a lock left by a builder that died is taken over at once, not after the stale-lock time', () => {
    killedMidBuild('a1');
    const build = sharedBuild({ dist, key: 'a1', build: fakeBuild('the next run'), ...WAIT });
    expect(builtBy(build)).toBe('the next run');
  });

  test('a lock held by a live builder is waited for, and its build used', async () => {
    const child = spawn(process.execPath, ['-e', childScript('a2', SLOW_BUILD)]);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    while (!fs.existsSync(path.join(dist, 'build-a2.lock'))) await new Promise((resolve) => setTimeout(resolve, 10));
    // The waiter gives up only long after the child's one-second build: a loaded CI machine can
    // take seconds to start the child, and giving up early would build twice and fail the test.
    const build = sharedBuild({ dist, key: 'a2', build: fakeBuild('the waiter'), ...WAIT, giveUpMs: 30_000 });
    expect(builtBy(build)).toBe('the child');
    expect(await exited).toBe(0);
  });

  test('the unfinished build and the lock of a builder that died are removed by the next build', () => {
    const dead = killedMidBuild('b1');
    expect(leftovers().join()).toContain(`${dead}`);
    sharedBuild({ dist, key: 'b2', build: fakeBuild('the next run'), ...WAIT });
    expect(fs.readdirSync(dist)).toEqual(['build-b2']);
  });

  test('a build that throws leaves no unfinished folder, and the next one builds', () => {
    const failing = (outDir: string) => {
      fakeBuild('half')(outDir);
      throw new Error('a type error');
    };
    expect(() => sharedBuild({ dist, key: 'c1', build: failing, ...WAIT })).toThrow('a type error');
    expect(leftovers()).toEqual([]);
    expect(builtBy(sharedBuild({ dist, key: 'c1', build: fakeBuild('the retry'), ...WAIT }))).toBe('the retry');
  });

  test('a builder whose lock was taken over leaves the lock of the builder that took it over', () => {
    const lock = path.join(dist, 'build-d1.lock');
    // While this builder builds, another judges its lock stale (staleLockMs 0), takes it, and dies.
    const overtaken = (outDir: string) => {
      killedMidBuild('d1', 'staleLockMs: 0, giveUpMs: 3000, pauseMs: 10,');
      fakeBuild('the first')(outDir);
    };
    sharedBuild({ dist, key: 'd1', build: overtaken, ...WAIT });
    expect(fs.existsSync(lock)).toBe(true);
  });

  describe('builds of other sources', () => {
    const HOUR = 3_600_000;
    const olderBuild = (key: string, unusedMs: number) => {
      fakeBuild('older sources')(path.join(dist, `build-${key}`));
      const then = new Date(Date.now() - unusedMs);
      fs.utimesSync(path.join(dist, `build-${key}`), then, then);
    };
    const buildNewer = () => sharedBuild({ dist, key: 'e9', build: fakeBuild('newer'), pruneAfterMs: HOUR, ...WAIT });

    test('are pruned once unused for longer than the age limit', () => {
      olderBuild('e1', 2 * HOUR);
      buildNewer();
      expect(fs.readdirSync(dist)).toEqual(['build-e9']);
    });

    test('are kept while younger than the age limit: another test file may be copying one', () => {
      olderBuild('e1', 60_000);
      buildNewer();
      expect(fs.readdirSync(dist).sort()).toEqual(['build-e1', 'build-e9']);
    });

    test('count as used when a test file takes them, however old they are', () => {
      olderBuild('e1', 2 * HOUR);
      sharedBuild({ dist, key: 'e1', build: fakeBuild('unused'), ...WAIT });
      buildNewer();
      expect(fs.readdirSync(dist).sort()).toEqual(['build-e1', 'build-e9']);
    });
  });
});
