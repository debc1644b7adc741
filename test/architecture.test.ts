import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..', 'src');
const PROVIDERS_DIR = path.join(SRC, 'providers');
const STORE_NEUTRAL = ['model', 'decorators', 'explain', 'core', 'runtime'];
const STORE_WORDS = /mongo|cassandra|cosmos|knex|redis/i;
/** Every folder under src/providers is a store: a new one is covered without editing this file. */
const PROVIDERS = fs
  .readdirSync(PROVIDERS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  // `from '…'`, `require('…')`, `import('…')` and a bare side-effect `import '…'`.
  return [...source.matchAll(/(?:from\s+|require\(|import\(|import\s+)\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] as string,
  );
}

/** The relative imports of every file under `folder`, resolved to absolute paths (no extension). */
function resolvedImports(folder: string): Array<{ file: string; target: string }> {
  return tsFiles(path.join(SRC, folder)).flatMap((file) =>
    importsOf(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => ({ file, target: path.resolve(path.dirname(file), spec) })),
  );
}

function isInside(target: string, folder: string): boolean {
  return target === folder || target.startsWith(folder + path.sep);
}

/** Imports from `folder` into a provider's own folder (only src/providers/*.ts are shared). */
function providerInternalImports(folder: string): string[] {
  return resolvedImports(folder)
    .filter(({ target }) => isInside(target, PROVIDERS_DIR) && path.dirname(target) !== PROVIDERS_DIR)
    .map(({ file, target }) => `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`);
}

describe('layering', () => {
  test.each(STORE_NEUTRAL)('src/%s names no store', (folder) => {
    const offenders = tsFiles(path.join(SRC, folder)).flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, where: `${path.relative(SRC, file)}:${i + 1}` }))
        .filter(({ line }) => STORE_WORDS.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  test.each(PROVIDERS)('src/providers/%s imports no other provider', (provider) => {
    const others = PROVIDERS.filter((p) => p !== provider);
    const offenders = tsFiles(path.join(SRC, 'providers', provider)).flatMap((file) =>
      importsOf(file)
        .filter((spec) => others.some((o) => new RegExp(`(^|/)${o}(/|$)`).test(spec)))
        .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  test('store drivers are imported only inside their provider folder', () => {
    const drivers = /^(knex|better-sqlite3|pg|mysql2|mongodb|cassandra-driver|@azure\/cosmos|redis|ioredis)$/;
    const offenders = tsFiles(SRC)
      .filter((file) => !PROVIDERS.some((p) => file.startsWith(path.join(SRC, 'providers', p) + path.sep)))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => drivers.test(spec))
          .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  test('src/model never imports src/decorators (decorators write into the model, not the other way)', () => {
    const decorators = path.join(SRC, 'decorators');
    const offenders = resolvedImports('model')
      .filter(({ target }) => isInside(target, decorators))
      .map(({ file, target }) => `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`);
    expect(offenders).toEqual([]);
  });

  // The CLI and the store-neutral layers reach a store only through the shared src/providers/*.ts
  // files (contract, connection-target, connection-errors, url-openers, catalog).
  test.each(['cli', ...STORE_NEUTRAL])('src/%s imports no provider internals', (folder) => {
    expect(providerInternalImports(folder)).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(tsFiles(path.join(SRC, 'model')).length).toBeGreaterThan(3);
    expect(PROVIDERS).toEqual(expect.arrayContaining(['cosmos', 'cassandra', 'mongodb', 'relational']));
    expect(resolvedImports('cli').length).toBeGreaterThan(10);
    expect(importsOf(path.join(SRC, 'providers', 'catalog.ts'))).toContain('./cosmos/explainer');
  });
});
