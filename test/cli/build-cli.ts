import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
const TEST_DIST = path.join(ROOT, '.test-dist');
/** What the build's output depends on: the sources, the compiler options, the compiler. */
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'src'];
/**
 * A lock whose owner cannot be checked (another host's, an older version's lock folder) is judged
 * by its age; so is every lock, in case its pid was reused. A build takes seconds to a few minutes.
 */
const STALE_LOCK_MS = 300_000;
/**
 * Builds of other sources are kept this long after their last use: a test file that computed its
 * key before a source was saved mid-run may still be copying one.
 */
const PRUNE_AFTER_MS = 3_600_000;

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

const HOST = os.hostname();
const HOST_TAG = createHash('sha256').update(HOST).digest('hex').slice(0, 8);
/** What a lock holds: who to ask whether its builder still runs. */
const ME = `${process.pid} ${HOST}`;
/** `build-<key>[.lock].<pid>[.<host tag>].tmp`: a folder (or lock) of one process (no tag: an older version's). */
const SCRATCH = /^build-[0-9a-f]+(?:\.lock)?\.([1-9]\d*)(?:\.([0-9a-f]{8}))?\.tmp$/;

/** A name next to `file` that is this process's own, and that tells the process it belongs to. */
function scratchFor(file: string): string {
  return `${file}.${process.pid}.${HOST_TAG}.tmp`;
}

/** False only when `pid` is gone from this host (a process of another user answers EPERM: it runs). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function textOf(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined; // an older version's lock folder, or a lock removed meanwhile
  }
}

function lockOf(done: string): string {
  return `${done}.lock`;
}

/** Takes the lock: a file created only if none exists, naming this process from the start. */
function tryLock(lock: string): boolean {
  try {
    fs.writeFileSync(lock, ME, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * A lock is stale when its builder on this host is gone (a worker killed mid-build runs no
 * `finally`), or is this process, which holds no lock while it waits; else when it is too old.
 */
function isStale(held: string | undefined, lockedAt: number, staleLockMs: number): boolean {
  if (Date.now() - lockedAt > staleLockMs) return true;
  const owner = /^([1-9]\d*) (.*)$/s.exec(held ?? '');
  if (!owner || owner[2] !== HOST) return false;
  return Number(owner[1]) === process.pid || !isRunning(Number(owner[1]));
}

/**
 * Removes the lock if it still holds `expected`. It is moved aside first, atomically, so a lock
 * another builder took meanwhile is never deleted: one moved aside by mistake is put back.
 */
function removeLock(lock: string, expected: string | undefined): void {
  const aside = scratchFor(lock);
  try {
    fs.renameSync(lock, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // gone already
    throw err;
  }
  try {
    // If a third builder locked meanwhile, this fails: both build, and the first to finish wins.
    if (textOf(aside) !== expected) fs.linkSync(aside, lock);
  } catch {
    // see above
  } finally {
    fs.rmSync(aside, { recursive: true, force: true });
  }
}

/** Removes the lock if it is stale; false when it is not (or is gone). */
function removeIfStale(lock: string, staleLockMs: number): boolean {
  const held = textOf(lock);
  const lockedAt = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
  if (lockedAt === undefined || !isStale(held, lockedAt, staleLockMs)) return false;
  removeLock(lock, held);
  return true;
}

/**
 * Removes what builders on this host that died left: unfinished builds, set-aside locks, and locks
 * of other sources (`held`, this process's own, is not one).
 */
function removeLeftovers(dist: string, held: string, staleLockMs: number): void {
  for (const entry of fs.readdirSync(dist)) {
    const scratch = SCRATCH.exec(entry);
    if (scratch && (scratch[2] ?? HOST_TAG) === HOST_TAG && !isRunning(Number(scratch[1]))) {
      fs.rmSync(path.join(dist, entry), { recursive: true, force: true });
    } else if (/^build-[0-9a-f]+\.lock$/.test(entry) && path.join(dist, entry) !== held) {
      removeIfStale(path.join(dist, entry), staleLockMs);
    }
  }
}

/** Marks a finished build as in use, so it is not pruned; false when there is none. */
function markUsed(done: string): boolean {
  const now = new Date();
  try {
    fs.utimesSync(done, now, now);
    return true;
  } catch {
    return false;
  }
}

/** Removes builds of other sources unused for `pruneAfterMs`, moved aside first so none is seen half gone. */
function pruneUnused(dist: string, keep: string, pruneAfterMs: number): void {
  for (const entry of fs.readdirSync(dist).filter((f) => /^build-[0-9a-f]+$/.test(f))) {
    const build = path.join(dist, entry);
    const lastUsed = fs.statSync(build, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (build === keep || Date.now() - lastUsed <= pruneAfterMs) continue;
    const aside = scratchFor(build);
    try {
      fs.renameSync(build, aside);
    } catch {
      continue; // another builder pruned it
    }
    fs.rmSync(aside, { recursive: true, force: true });
  }
}

/** Builds into a folder of this process's own, published with one rename: no reader sees half a build. */
function buildInto(done: string, { dist, build, staleLockMs, pruneAfterMs }: Required<SharedBuildPlan>): void {
  removeLeftovers(dist, lockOf(done), staleLockMs);
  const building = scratchFor(done);
  fs.rmSync(building, { recursive: true, force: true });
  try {
    build(building);
    pruneUnused(dist, done, pruneAfterMs);
    try {
      fs.renameSync(building, done);
    } catch (err) {
      // A builder that took over a lock it judged stale finished first: its build is the same.
      if (!fs.existsSync(done)) throw err;
    }
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
}

/**
 * The package compiled by tsc once for these sources, shared by every CLI test file of a run (and
 * by later runs while src/ is unchanged): one compilation costs ~15 s of CPU, and eight files
 * each compiling their own was a sixth of the suite's CPU time. The first file to need it builds
 * under a lock file naming its pid; the others wait for the finished folder, or take the lock
 * over when its builder died.
 */
export function sharedBuild({
  pauseMs = 200,
  staleLockMs = STALE_LOCK_MS,
  giveUpMs = 3 * staleLockMs,
  pruneAfterMs = PRUNE_AFTER_MS,
  ...plan
}: SharedBuildPlan): string {
  const done = path.join(plan.dist, `build-${plan.key}`);
  const lock = lockOf(done);
  fs.mkdirSync(plan.dist, { recursive: true });
  for (const started = Date.now(); !markUsed(done);) {
    if (tryLock(lock)) {
      try {
        if (!fs.existsSync(done)) buildInto(done, { ...plan, pauseMs, staleLockMs, giveUpMs, pruneAfterMs });
      } finally {
        removeLock(lock, ME);
      }
      continue;
    }
    if (Date.now() - started > giveUpMs) throw new Error(`no build appeared in ${done}`);
    if (!removeIfStale(lock, staleLockMs)) pause(pauseMs);
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
