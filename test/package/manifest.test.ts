/**
 * package.json as a registry and a user's installer read it: complete metadata, a LICENSE file
 * that matches it, runtime dependencies that deduplicate, and peer ranges that admit the newest
 * driver majors (whose Node 22 requirement is the README's business, not an install failure).
 * The packed-package test installs the tarball next to those drivers for real.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const record = (key: string): Record<string, string> => (pkg[key] ?? {}) as Record<string, string>;

describe('package.json', () => {
  // `npm view lifespan` is an unrelated package (5.0.1, another author): installing that name
  // installs someone else's code. The name below answered 404 on the npm registry when chosen.
  test('is published under a name of its own, and every install line and import in the docs uses it', () => {
    expect(pkg.name).toBe('lifespan-orm');
    const docs = [
      'README.md',
      ...fs.readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map((f) => path.join('docs', String(f))),
    ]
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')] as const);
    const wrong = docs.flatMap(([file, text]) =>
      [...text.matchAll(/npm (?:install|i|add) (\S+)|(?:from |require\()'(lifespan[^'/]*)/g)]
        .map((m) => m[1] ?? m[2])
        .filter((name) => name !== undefined && name.startsWith('lifespan') && name !== pkg.name)
        .map((name) => `${file}: ${name}`),
    );
    expect(wrong).toEqual([]);
  });

  test('names its repository, homepage, issue tracker and keywords', () => {
    expect(pkg.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//) });
    expect(pkg.homepage).toEqual(expect.stringMatching(/^https:\/\//));
    expect(pkg.bugs).toMatchObject({ url: expect.stringMatching(/^https:\/\/.*\/issues$/) });
    expect(pkg.keywords).toEqual(expect.arrayContaining(['ttl', 'cassandra', 'mongodb', 'cosmos-db', 'sqlite']));
  });

  test('ships a LICENSE file with the license it declares', () => {
    expect(pkg.license).toBe('MIT');
    const license = path.join(ROOT, 'LICENSE');
    expect(fs.existsSync(license) && fs.readFileSync(license, 'utf8')).toMatch(/^MIT License\n/);
    expect(pkg.files).toContain('LICENSE');
  });

  test('runtime dependencies are caret ranges, so a user tree can share them', () => {
    const notCaret = Object.entries(record('dependencies')).filter(([, range]) => !/^\^\d+\.\d+\.\d+$/.test(range));
    expect(notCaret).toEqual([]);
  });

  test('peer ranges admit the newest majors of the drivers that need Node 22', () => {
    const peers = record('peerDependencies');
    expect(peers['@azure/cosmos']).toBe('^4.9.0');
    expect(peers['better-sqlite3']).toBe('^12.0.0 || ^13.0.0');
    // The CLI's .ts loader only calls ts.transpileModule, which TypeScript 6 keeps (checked by hand).
    expect(peers.typescript).toBe('^5.0.0 || ^6.0.0');
    expect(Object.keys(record('peerDependenciesMeta')).sort()).toEqual(Object.keys(peers).sort());
  });

  test('every peer range is justified in docs/compatibility.md (no CI matrix runs them), linked from the README', () => {
    const peers = record('peerDependencies');
    // Lower bounds narrowed to what the driver API lifespan uses (or knex's own tests) supports.
    expect(peers).toMatchObject({ 'cassandra-driver': '^4.2.0', pg: '^8.20.0', mysql2: '^3.2.0' });
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'compatibility.md'), 'utf8');
    const devDependencies = record('devDependencies');
    const rows = Object.entries(peers).map(([name, range]) => {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${name}\``)) ?? '';
      // The row names the range (| escaped in Markdown) and the version the suite runs (the exact devDependency).
      return {
        name,
        range: row.includes(range.replace(/\|/g, '\\|')),
        runs: row.includes(`| ${devDependencies[name]} `),
      };
    });
    expect(rows.filter((r) => !r.range || !r.runs)).toEqual([]);
    expect(page).toMatch(/`@azure\/cosmos` 4\.10 and later and `better-sqlite3` 13 declare `engines\.node >= 22`/);
    expect(page).toMatch(/only resolves an install/);
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('](docs/compatibility.md)');
  });

  test('contributor documents stay out of the package; types resolve for node10 resolution too', () => {
    expect(pkg.files).toEqual(expect.arrayContaining(['!docs/STATUS.md', '!docs/testing.md', '!docs/performance.md']));
    const exportsMap = pkg.exports as Record<string, { types?: string }>;
    const typesVersions = (pkg.typesVersions as Record<string, Record<string, string[]>> | undefined)?.['*'] ?? {};
    const missing = Object.entries(exportsMap)
      .filter(([subpath, target]) => subpath !== '.' && target.types)
      .filter(([subpath, target]) => typesVersions[subpath.slice(2)]?.[0] !== target.types?.slice(2))
      .map(([subpath]) => subpath);
    expect(missing).toEqual([]);
  });
});
