import * as fs from 'node:fs';
import * as ts from 'typescript';
import * as path from 'node:path';
import { STORES } from '../src/providers/stores';

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
  // The compiler's own scan: `import … from`, `export … from`, `require()`, `import()` and a bare
  // `import '…'`, but not text that only looks like one inside a string (init's config templates).
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
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
  // files (contract, connection-target, connection-errors, url-openers, registry, stores, store-descriptor).
  test.each(['cli', ...STORE_NEUTRAL])('src/%s imports no provider internals', (folder) => {
    expect(providerInternalImports(folder)).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(tsFiles(path.join(SRC, 'model')).length).toBeGreaterThan(3);
    expect(PROVIDERS).toEqual(expect.arrayContaining(['cosmos', 'cassandra', 'mongodb', 'relational']));
    expect(resolvedImports('cli').length).toBeGreaterThan(10);
    expect(importsOf(path.join(PROVIDERS_DIR, 'stores.ts'))).toContain('./cosmos/descriptor');
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

describe('provider file names', () => {
  /** One role, one file name: a reader who knows one provider finds the same part in every other. */
  const ROLE_FILES = [
    'index.ts', // the public exports of the provider
    'store.ts', // the connected store
    'session.ts', // the schema session (plan, apply, explain with a connection)
    'compile.ts', // model → the store's plain-data layout
    'plan.ts', // layout vs what the store holds → plan steps
    'steps.ts', // the plan step table keyed by step kind
    'semantics.ts', // the store's facts and phrases
    'descriptor.ts', // what the shared code knows of the store, listed in src/providers/stores.ts
    'explainer.ts', // the driver-free explainer its descriptor names
    'explain-entry.ts', // the ExplainEntry of one entity
    'repository.ts', // reads and writes of one entity
    'unit-of-work.ts', // the store's unit of work
    'from-url.ts', // opening the store from a connection URL
    'codec.ts', // a member value ⇄ the store's native value
  ];
  /** Names that meant different things in different providers: the role has its own name now. */
  const RETIRED_NAMES = ['guards.ts', 'values.ts', 'item-codec.ts', 'expiry.ts'];

  test.each(PROVIDERS)('src/providers/%s has every role file', (provider) => {
    const missing = ROLE_FILES.filter((file) => !fs.existsSync(path.join(PROVIDERS_DIR, provider, file)));
    expect(missing).toEqual([]);
  });

  test.each(PROVIDERS)('src/providers/%s uses no retired file name', (provider) => {
    const retired = tsFiles(path.join(PROVIDERS_DIR, provider))
      .filter((file) => RETIRED_NAMES.includes(path.basename(file)))
      .map((file) => path.relative(SRC, file));
    expect(retired).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(PROVIDERS.length).toBeGreaterThanOrEqual(5);
    expect(tsFiles(path.join(PROVIDERS_DIR, 'relational')).length).toBeGreaterThan(20);
  });
});

describe('store registry: a new store is its folder plus one line and its name in src/providers/stores.ts', () => {
  const STORES_FILE = path.join(PROVIDERS_DIR, 'stores.ts');
  const source = fs.existsSync(STORES_FILE) ? fs.readFileSync(STORES_FILE, 'utf8') : '';
  /** `import { descriptor as <name> } from './<folder>/descriptor';`, the one line per store. */
  const LISTING = /^import \{ descriptor as (\w+) \} from '\.\/([\w-]+)\/descriptor';$/;
  const imports = source.split('\n').filter((line) => line.startsWith('import'));
  /** The names in `export const STORES = [a, b, …]`, in their order (the order explain() and the CLI use). */
  const listed = (/^export const STORES = \[([^\]]*)\]/m.exec(source)?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

  test("every import of stores.ts is one store's descriptor, under its folder name", () => {
    const misfits = imports.filter((line) => {
      const match = LISTING.exec(line);
      return !match || match[1] !== match[2];
    });
    expect(misfits).toEqual([]);
  });

  test('stores.ts imports exactly the folders under src/providers, each once', () => {
    const folders = imports.map((line) => LISTING.exec(line)?.[2] ?? line);
    expect([...folders].sort()).toEqual([...PROVIDERS].sort());
  });

  test('STORES lists every imported descriptor once, in an explicit order, each under its own name', () => {
    expect([...listed].sort()).toEqual([...PROVIDERS].sort());
    expect(STORES.map((descriptor) => descriptor.name)).toEqual(listed);
  });

  test('index.ts only at the top of a provider folder (the package exports every one as lifespan/<folder>)', () => {
    const nested = PROVIDERS.flatMap((provider) =>
      tsFiles(path.join(PROVIDERS_DIR, provider))
        .filter((file) => path.basename(file) === 'index.ts')
        .filter((file) => path.dirname(file) !== path.join(PROVIDERS_DIR, provider))
        .map((file) => path.relative(SRC, file)),
    );
    expect(nested).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(imports.length).toBeGreaterThanOrEqual(5);
    expect(listed.length).toBeGreaterThanOrEqual(5);
  });
});
