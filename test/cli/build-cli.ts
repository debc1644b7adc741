import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
const TEST_DIST = path.join(ROOT, '.test-dist');
/** What the build's output depends on: the sources, the compiler options, the compiler. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'src'];
/** A lock older than this was left by a build that died (a build takes seconds to a few minutes). */
const STALE_LOCK_MS = 600_000;

/** Every file under `dir`, sorted, relative to `root`. */
function filesUnder(root: string, dir: string): string[] {
  if (fs.statSync(dir).isFile()) return [path.relative(root, dir)];
  return fs
    .readdirSync(dir)
    .sort()
    .flatMap((entry) => filesUnder(root, path.join(dir, entry)));
}

/** A hash of every build input: a changed source means another build, never a stale one. */
export function buildKey(root = ROOT): string {
  const hash = createHash('sha256');
  hash.update(fs.readFileSync(require.resolve('typescript/package.json')));
  for (const file of BUILD_INPUTS.flatMap((input) => filesUnder(root, path.join(root, input)))) {
    hash.update(`\0${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Where the builds live, what to build, and how long to wait: injectable so tests need no tsc. */
export interface SharedBuildPlan {
  /** The folder holding `build-<key>` and its lock. */
  readonly dist: string;
  /** The build inputs' key ({@link buildKey}). */
  readonly key: string;
  /** Writes the package into `outDir` (throws when the build fails). */
  readonly build: (outDir: string) => void;
  readonly pauseMs?: number;
  readonly staleLockMs?: number;
  readonly giveUpMs?: number;
  readonly pruneAfterMs?: number;
}

function tscBuild(outDir: string): void {
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir],
    { cwd: ROOT, stdio: 'pipe' },
  );
}

/**
 * The package compiled by tsc once for these sources, shared by every CLI test file of a run (and
 * by later runs while src/ is unchanged): one compilation costs ~15 s of CPU, and eight files
 * each compiling their own was a sixth of the suite's CPU time. The first file to need it builds
 * under a lock folder; the others wait for the finished folder.
 */
export function sharedBuild({
  dist,
  key,
  build,
  pauseMs = 200,
  staleLockMs = STALE_LOCK_MS,
  giveUpMs = 2 * staleLockMs,
}: SharedBuildPlan): string {
  const done = path.join(dist, `build-${key}`);
  const lock = `${done}.lock`;
  fs.mkdirSync(dist, { recursive: true });
  for (const started = Date.now(); !fs.existsSync(done); pause(pauseMs)) {
    try {
      fs.mkdirSync(lock);
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > staleLockMs) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > giveUpMs) throw new Error(`no build appeared in ${done}`);
      continue;
    }
    try {
      if (fs.existsSync(done)) break;
      const building = `${done}.${process.pid}.tmp`;
      fs.rmSync(building, { recursive: true, force: true });
      build(building);
      // Builds of earlier sources are of no further use.
      for (const old of fs.readdirSync(dist).filter((f) => /^build-[0-9a-f]+$/.test(f))) {
        if (path.join(dist, old) !== done) fs.rmSync(path.join(dist, old), { recursive: true, force: true });
      }
      try {
        fs.renameSync(building, done);
      } catch (err) {
        // A builder that took over a lock it judged stale finished first: its build is the same.
        if (!fs.existsSync(done)) throw err;
        fs.rmSync(building, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return done;
}

/**
 * The built package in a folder of this test file's own (a copy of the shared build), so CLI
 * tests run the real built CLI as a subprocess, and may add files next to it, without racing
 * other test files.
 */
export function buildCli(name: string): { outDir: string; main: string; index: string } {
  const outDir = path.join(TEST_DIST, name);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.cpSync(sharedBuild({ dist: TEST_DIST, key: buildKey(), build: tscBuild }), outDir, { recursive: true });
  return { outDir, main: path.join(outDir, 'cli', 'main.js'), index: path.join(outDir, 'index.js') };
}
