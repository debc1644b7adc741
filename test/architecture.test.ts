import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..', 'src');
const STORE_NEUTRAL = ['model', 'decorators', 'explain'];
const STORE_WORDS = /mongo|cassandra|cosmos|knex|redis/i;
const PROVIDERS = ['cosmos', 'cassandra', 'mongodb', 'redis', 'relational'];

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
    const drivers = /^(knex|better-sqlite3|pg|mysql2|mongodb|cassandra-driver|@azure\/cosmos|redis)$/;
    const offenders = tsFiles(SRC)
      .filter((file) => !PROVIDERS.some((p) => file.startsWith(path.join(SRC, 'providers', p) + path.sep)))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => drivers.test(spec))
          .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(tsFiles(path.join(SRC, 'model')).length).toBeGreaterThan(3);
    expect(importsOf(path.join(SRC, 'providers', 'catalog.ts'))).toContain('./cosmos/explainer');
  });
});
