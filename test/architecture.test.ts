import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..', 'src');
const STORE_NEUTRAL = ['model', 'decorators', 'explain'];
const STORE_WORDS = /mongo|cassandra|cosmos|knex/i;
const PROVIDERS = ['cosmos', 'cassandra', 'mongodb', 'relational'];

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
  return [...source.matchAll(/(?:from\s+|require\(|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
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
    const others = PROVIDERS.filter((p) => p !== provider);
    const offenders = tsFiles(path.join(SRC, 'providers', provider)).flatMap((file) =>
      importsOf(file)
        .filter((spec) => others.some((o) => new RegExp(`(^|/)${o}(/|$)`).test(spec)))
        .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  test('store drivers are imported only inside their provider folder', () => {
    const drivers = /^(knex|better-sqlite3|pg|mysql2|mongodb|cassandra-driver|@azure\/cosmos)$/;
    const outside = tsFiles(SRC).filter(
      (file) => !PROVIDERS.some((p) => file.startsWith(path.join(SRC, 'providers', p) + path.sep)),
    );
    expect(importsMatching(outside, drivers)).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(tsFiles(path.join(SRC, 'model')).length).toBeGreaterThan(3);
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
