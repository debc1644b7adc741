/**
 * The package as a user gets it: `npm pack` (with its prepack: clean build and API reference) on a
 * copy of the project, the tarball installed into fresh CommonJS and NodeNext consumer projects
 * made of the README's getting-started files (its tsconfig.json, src/models.ts, src/main.ts), the
 * model compiled with tsc under every moduleResolution, explain and a SQLite round trip with
 * emulated TTL run there, and the installed bin run (`--version`, `explain`, `plan`, `demo`).
 * Network: the npm registry only (`--prefer-offline` serves it from the npm cache). The SQLite
 * driver is linked from this project's node_modules instead of compiled again (1m45s).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DESCRIPTORS } from '../../src/providers/registry';
import { PROVIDER_FOLDERS } from './exported-names';
import { npm, packProject, readmeFiles, run, tarballFiles } from './packing';
import { registrySkipReason } from './registry';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..', '..');
const CONSUMER = path.join(__dirname, 'consumer');
const TSC = require.resolve('typescript/bin/tsc');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** Drivers (every store's driver packages) and types the consumers use, linked from this project instead of installed again. */
const LINKED = ['@types/node', ...DESCRIPTORS.flatMap((d) => d.driverPackages)];
/** Each store (a folder under src/providers) has its page, docs/stores/<store>.md. */
const STORE_PAGES = PROVIDER_FOLDERS;

const README_FILES = readmeFiles(path.join(ROOT, 'README.md'));
const SESSION_LINES = ['s1 has 3600s to live; payload: hello', 'purged 1 expired row(s); s1 still stored: false'];

/** Outside CI, an unreachable registry skips this file with the reason instead of failing after npm's retries. */
const SKIP_REASON = registrySkipReason();
// Straight to stderr: Jest shows no console output of a file whose tests are all skipped.
if (SKIP_REASON) process.stderr.write(`\npacked-package tests skipped: ${SKIP_REASON}; set CI=1 to run them anyway\n`);
const describeOnline = SKIP_REASON ? describe.skip : describe;

/**
 * The driver peers whose `latest` dist-tag the package must install next to. typescript is left
 * out on purpose: TypeScript 7 (the native port) exports no transpileModule, which the CLI's .ts
 * loader needs, so the peer range stops at 6 (docs/compatibility.md).
 */
const NEWEST_DRIVERS = Object.keys(
  (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: object })
    .peerDependencies,
).filter((name) => name !== 'typescript');

let work = '';
let tarball = '';

beforeAll(() => {
  if (SKIP_REASON) return;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-packed-'));
  tarball = packProject(ROOT, work);
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const consumers = new Map<string, string>();

/** A fresh project with the tarball installed, the fixture sources, and the drivers linked; made once. */
function consumer(name: 'cjs' | 'esm'): string {
  const made = consumers.get(name);
  if (made) return made;
  const dir = path.join(work, name);
  const type = name === 'cjs' ? 'commonjs' : 'module';
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  npm(dir, ['install', tarball, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund']);
  for (const [file, text] of Object.entries(README_FILES)) fs.writeFileSync(path.join(dir, file), text);
  for (const file of fs.readdirSync(CONSUMER)) fs.copyFileSync(path.join(CONSUMER, file), path.join(dir, 'src', file));
  for (const pkg of LINKED) {
    const link = path.join(dir, 'node_modules', pkg);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', pkg), link, 'dir');
  }
  consumers.set(name, dir);
  return dir;
}

/** tsc over the consumer with the README's tsconfig.json and these options laid over it; its output. */
function tsc(dir: string, name: string, options: Record<string, unknown> = {}): string {
  const config = { extends: './tsconfig.json', compilerOptions: options };
  fs.writeFileSync(path.join(dir, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
  return run(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], dir).output;
}

/**
 * Type-checks the getting-started program of every store page (the ```ts block that imports the
 * README's ./models.js) next to the README's models, with the README's tsconfig.
 */
function compileStorePages(dir: string): string {
  const check = path.join(dir, 'docs-check');
  fs.mkdirSync(check);
  fs.copyFileSync(path.join(dir, 'src', 'models.ts'), path.join(check, 'models.ts'));
  for (const store of STORE_PAGES) {
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'stores', `${store}.md`), 'utf8');
    const block = [...page.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].find((m) => m[1]?.includes("from './models.js'"));
    fs.writeFileSync(path.join(check, `${store}.ts`), block?.[1] ?? `no getting-started program in ${store}.md`);
  }
  const config = {
    extends: './tsconfig.json',
    compilerOptions: { noEmit: true, rootDir: '.' },
    include: ['docs-check'],
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.docs.json'), JSON.stringify(config));
  return run(process.execPath, [TSC, '-p', 'tsconfig.docs.json'], dir).output;
}

function expectSessionStore(dir: string): void {
  const result = run(process.execPath, ['dist/main.js', path.join(dir, 'app.db')], dir);
  expect(result).toMatchObject({ status: 0, stderr: '' });
  expect(result.stdout).toContain('sessions: emulated TTL');
  for (const line of SESSION_LINES) expect(result.stdout).toContain(line);
}

describeOnline(SKIP_REASON ? `the packed package (skipped: ${SKIP_REASON})` : 'the packed package', () => {
  test('contains what a user runs, and nothing of the repository', () => {
    const files = tarballFiles(tarball);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js']));
    expect(files).toEqual(expect.arrayContaining(['dist/index.d.ts', 'dist/demo/models.js', 'docs/cli.md']));
    expect(files).toEqual(expect.arrayContaining(['docs/errors.md', 'docs/troubleshooting.md', 'docs/api/index.md']));
    const contributorDocs = ['docs/STATUS.md', 'docs/testing.md', 'docs/performance.md'];
    expect(files.filter((f) => contributorDocs.includes(f) || /^(src|test|examples|bench|scripts)\//.test(f))).toEqual(
      [],
    );
    expect(files.filter((f) => !/^(dist\/|docs\/|LICENSE$|README\.md$|package\.json$)/.test(f))).toEqual([]);
  });

  test('every source map carries its sources, and every shipped link resolves', () => {
    const pkg = path.join(consumer('cjs'), 'node_modules', 'lifespan-orm');
    const maps = listFiles(pkg).filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    const bare = maps.filter((f) => {
      const map = JSON.parse(fs.readFileSync(path.join(pkg, f), 'utf8')) as { sourcesContent?: unknown[] };
      return !map.sourcesContent?.every((s) => typeof s === 'string' && s.length > 0);
    });
    expect(bare).toEqual([]);
    const broken = listFiles(pkg)
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) => relativeLinks(path.join(pkg, f)).map((link) => ({ f, link })))
      .filter(({ f, link }) => !fs.existsSync(path.resolve(pkg, path.dirname(f), link)))
      .map(({ f, link }) => `${f} → ${link}`);
    expect(broken).toEqual([]);
  });

  test('a CommonJS consumer compiles under node10, node16 and bundler resolution and runs on SQLite', () => {
    const dir = consumer('cjs');
    expect(Object.keys(README_FILES).sort()).toEqual(['src/main.ts', 'src/models.ts', 'tsconfig.json']);
    // The README's `module: commonjs` alone means node10 resolution: subpaths need typesVersions there.
    expect(tsc(dir, 'node10')).toBe('');
    expect(tsc(dir, 'node16', { module: 'node16', moduleResolution: 'node16', noEmit: true })).toBe('');
    expect(tsc(dir, 'bundler', { module: 'preserve', moduleResolution: 'bundler', noEmit: true })).toBe('');
    expectSessionStore(dir);
    expect(compileStorePages(dir)).toBe('');

    const bin = path.join(dir, 'node_modules', '.bin', 'lifespan');
    expect(run(bin, ['--version'], dir)).toMatchObject({ status: 0, stdout: `${VERSION}\n` });
    const explained = run(bin, ['explain', 'dist/models.js', '--store', 'relational,mongodb'], dir);
    expect(explained).toMatchObject({ status: 0 });
    expect(explained.stdout).toContain('sessions');
    // The README's next step: the database main.js made is in sync with the model.
    const plan = run(
      bin,
      ['plan', '--check', '--url', 'sqlite:./app.db?ttl=emulate', '--models', 'dist/models.js'],
      dir,
    );
    expect(plan).toMatchObject({ status: 0, stderr: '' });
    expect(plan.stdout).toContain('in sync with the model');
    const demo = run(bin, ['demo', '--file', path.join(dir, 'demo', 'demo.db')], dir);
    expect(demo.stderr).toBe('');
    expect(demo).toMatchObject({ status: 0 });
    expect(demo.stdout).toContain('purgeExpired(');
  });

  test('a NodeNext ES module consumer compiles, imports every export by name and runs on SQLite', () => {
    const dir = consumer('esm');
    expect(tsc(dir, 'nodenext', { module: 'nodenext', moduleResolution: 'nodenext' })).toBe('');
    expectSessionStore(dir);
    const named = run(process.execPath, ['src/named-exports.mjs'], dir);
    expect(JSON.parse(named.stdout)).toEqual({ missing: [], named: true });
  });

  test('installs next to the newest drivers, whose Node requirement is the only limit', () => {
    const dir = path.join(work, 'newest-drivers');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'newest', private: true }));
    const args = ['install', '--package-lock-only', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];
    // Each driver's current `latest`, so the next major is noticed the day it is published.
    const newest = NEWEST_DRIVERS.map((name) => `${name}@${npm(dir, ['view', name, 'version']).stdout.trim()}`);
    expect(newest.filter((spec) => !/@\d+\.\d+\.\d+$/.test(spec))).toEqual([]);
    let result = npm(dir, [...args, tarball, ...newest], { check: false });
    // --prefer-offline trusts a cached package list: one cached before a driver's dependency
    // published the version the newest driver asks for answers ETARGET. Asked again, fresh.
    if (result.status !== 0 && /ETARGET/.test(result.output)) {
      result = npm(dir, [...args.filter((a) => a !== '--prefer-offline'), tarball, ...newest], { check: false });
    }
    expect(result.output).not.toMatch(/ERESOLVE/);
    expect(result).toMatchObject({ status: 0 });
  });
});

function listFiles(dir: string, base = ''): string[] {
  return fs.readdirSync(path.join(dir, base), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(base, e.name);
    if (e.isDirectory()) return listFiles(dir, rel);
    return e.isFile() ? [rel] : [];
  });
}

/** Relative targets of the Markdown links in a file (URLs and in-page anchors left out). */
function relativeLinks(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] as string).replace(/#.*$/, ''))
    .filter((link) => link !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(link));
}
