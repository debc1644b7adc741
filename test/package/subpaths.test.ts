/**
 * The package's subpaths as Node and TypeScript resolve them, against a stand-in of the build (a
 * .js and a .d.ts for every source file, where tsc emits them) under a consumer's node_modules:
 * every folder under src/providers is `lifespan/<folder>`, the root is `lifespan`, and no other
 * file or folder of the build is reachable through the `./*` pattern. Offline and fast; the
 * packed-package test installs the real tarball.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { PROVIDER_FOLDERS } from './exported-names';

const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');

/** Every file (without .ts) and folder under `dir`, relative to it. */
function sourcePaths(dir: string, base = ''): string[] {
  return fs.readdirSync(path.join(dir, base), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(base, entry.name);
    if (entry.isDirectory()) return [rel, ...sourcePaths(dir, rel)];
    return entry.name.endsWith('.ts') ? [rel.slice(0, -'.ts'.length)] : [];
  });
}

/** What `lifespan/<x>` could name if the exports let too much through: any source path, from src or src/providers. */
const NOT_ENTRY_POINTS = [...new Set([...sourcePaths(SRC), ...sourcePaths(path.join(SRC, 'providers'))])].filter(
  (rel) => !PROVIDER_FOLDERS.includes(rel),
);

let consumer = '';
let pkg = '';

beforeAll(() => {
  consumer = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-subpaths-'));
  pkg = path.join(consumer, 'node_modules', 'lifespan-orm');
  fs.mkdirSync(pkg, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
  for (const rel of sourcePaths(SRC)) {
    if (fs.statSync(path.join(SRC, rel), { throwIfNoEntry: false })?.isDirectory()) continue;
    const out = path.join(pkg, 'dist', rel);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(`${out}.js`, `module.exports = { built: ${JSON.stringify(rel)} };\n`);
    fs.writeFileSync(`${out}.d.ts`, 'export declare const built: string;\n');
  }
  fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
});

afterAll(() => {
  if (consumer) fs.rmSync(consumer, { recursive: true, force: true });
});

/** The build file (relative to the package) Node's require resolves each specifier to, or null. */
function nodeResolves(specifiers: readonly string[]): Record<string, string | null> {
  const script =
    'const out = {}; for (const s of JSON.parse(process.argv[1])) {' +
    ' try { out[s] = require("node:path").relative(process.argv[2], require.resolve(s)); } catch { out[s] = null; } }' +
    ' console.log(JSON.stringify(out));';
  const result = spawnSync(process.execPath, ['-e', script, JSON.stringify(specifiers), pkg], {
    cwd: consumer,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Record<string, string | null>;
}

const RESOLUTIONS = {
  node10: { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 },
  node16: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
  bundler: { module: ts.ModuleKind.Preserve, moduleResolution: ts.ModuleResolutionKind.Bundler },
} as const;

/** The declaration file (relative to the package) TypeScript resolves `specifier` to, or null. */
function typesOf(specifier: string, resolution: keyof typeof RESOLUTIONS): string | null {
  const from = path.join(consumer, 'src', 'main.ts');
  const resolved = ts.resolveModuleName(specifier, from, RESOLUTIONS[resolution], ts.sys).resolvedModule;
  return resolved ? path.relative(pkg, resolved.resolvedFileName) : null;
}

describe('package subpaths', () => {
  test('Node resolves the root and every provider folder, each to its index.js', () => {
    const entries = ['lifespan-orm', ...PROVIDER_FOLDERS.map((p) => `lifespan-orm/${p}`)];
    expect(nodeResolves(entries)).toEqual({
      'lifespan-orm': 'dist/index.js',
      ...Object.fromEntries(PROVIDER_FOLDERS.map((p) => [`lifespan-orm/${p}`, `dist/providers/${p}/index.js`])),
    });
  });

  test('Node resolves nothing else of the build through the pattern', () => {
    const resolved = Object.entries(nodeResolves(NOT_ENTRY_POINTS.map((rel) => `lifespan-orm/${rel}`)))
      .filter(([, file]) => file !== null)
      .map(([specifier, file]) => `${specifier} → ${file}`);
    expect(resolved).toEqual([]);
  });

  test.each(Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[])(
    'TypeScript (%s) finds the types of the root and of every provider folder',
    (resolution) => {
      const found = Object.fromEntries(
        ['lifespan-orm', ...PROVIDER_FOLDERS.map((p) => `lifespan-orm/${p}`)].map((s) => [s, typesOf(s, resolution)]),
      );
      expect(found).toEqual({
        'lifespan-orm': 'dist/index.d.ts',
        ...Object.fromEntries(PROVIDER_FOLDERS.map((p) => [`lifespan-orm/${p}`, `dist/providers/${p}/index.d.ts`])),
      });
    },
  );

  test.each(Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[])(
    'TypeScript (%s) finds no other types through the pattern',
    (resolution) => {
      const resolved = NOT_ENTRY_POINTS.map((rel) => `lifespan-orm/${rel}`)
        .map((specifier) => ({ specifier, file: typesOf(specifier, resolution) }))
        .filter(({ file }) => file !== null)
        .map(({ specifier, file }) => `${specifier} → ${file}`);
      expect(resolved).toEqual([]);
    },
  );

  test('the checks see the files they guard', () => {
    expect(PROVIDER_FOLDERS.length).toBeGreaterThanOrEqual(5);
    expect(NOT_ENTRY_POINTS).toEqual(expect.arrayContaining(['index', 'providers/registry', 'registry', 'cli/main']));
    expect(fs.existsSync(path.join(pkg, 'dist', 'providers', 'redis', 'index.d.ts'))).toBe(true);
  });
});
