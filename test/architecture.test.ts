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

/** `file:line: text` of each line of `files` that matches `pattern`. */
function linesMatching(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => ({ line, where: `${path.relative(SRC, file)}:${i + 1}` }))
      .filter(({ line }) => pattern.test(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`),
  );
}

/** `file imports spec` for each import of `files` that matches `pattern`. */
function importsMatching(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((spec) => pattern.test(spec))
      .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
  );
}

describe('layering', () => {
  test.each(STORE_NEUTRAL)('src/%s names no store', (folder) => {
    expect(linesMatching(tsFiles(path.join(SRC, folder)), STORE_WORDS)).toEqual([]);
  });

  test.each(PROVIDERS)('src/providers/%s imports no other provider', (provider) => {
    const others = new RegExp(`(^|/)(${PROVIDERS.filter((p) => p !== provider).join('|')})(/|$)`);
    expect(importsMatching(tsFiles(path.join(SRC, 'providers', provider)), others)).toEqual([]);
  });

  test('store drivers are imported only inside their provider folder', () => {
    const drivers = /^(knex|better-sqlite3|pg|mysql2|mongodb|cassandra-driver|@azure\/cosmos|redis|ioredis)$/;
    const outside = tsFiles(SRC).filter(
      (file) => !PROVIDERS.some((p) => file.startsWith(path.join(SRC, 'providers', p) + path.sep)),
    );
    expect(importsMatching(outside, drivers)).toEqual([]);
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

describe('relational provider by SQL family', () => {
  const RELATIONAL = path.join(SRC, 'providers', 'relational');
  const inside = (file: string, folder: string) => file.startsWith(path.join(RELATIONAL, folder) + path.sep);

  test('branches on the SQL family only inside families/ (elsewhere: the family object, or a Record by family)', () => {
    const branch = /(===|!==)\s*'(sqlite|postgres|mariadb|mysql)'|case\s+'(sqlite|postgres|mariadb|mysql)'/;
    expect(
      linesMatching(
        tsFiles(RELATIONAL).filter((file) => !inside(file, 'families')),
        branch,
      ),
    ).toEqual([]);
  });

  test('only drivers/ imports a database driver', () => {
    const drivers = /^(better-sqlite3|pg|mysql2)(\/|$)/;
    expect(
      importsMatching(
        tsFiles(RELATIONAL).filter((file) => !inside(file, 'drivers')),
        drivers,
      ),
    ).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(tsFiles(path.join(RELATIONAL, 'families')).length).toBeGreaterThan(3);
    expect(tsFiles(path.join(RELATIONAL, 'drivers')).length).toBeGreaterThan(5);
  });
});
