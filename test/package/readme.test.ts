/**
 * The README and user docs as a newcomer reads them. Whether the getting-started actually works is
 * the packed-package test's job (it builds a consumer project from the README's code blocks).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readmeFiles } from './packing';
import { STORE_NAMES } from '../../src/providers/registry';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const CONTRIBUTOR_DOCS = ['docs/STATUS.md', 'docs/testing.md', 'docs/performance.md'];

function sections(text: string): string[] {
  return [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1] as string);
}

describe('README', () => {
  test('opens with the two set-up commands of the repository', () => {
    expect(README.split('\n').slice(0, 6).join('\n')).toBe('# lifespan\n\n```sh\nnpm ci && npm start\nnpm test\n```');
  });

  test('then says what lifespan is not, how to install it for one store, and the tsconfig it needs', () => {
    expect(sections(README).slice(0, 3)).toEqual([
      'Install',
      'TypeScript settings',
      'Getting started: a SQLite session store with emulated TTL',
    ]);
    expect(README).toMatch(/not\*\* a TTL add-on for TypeORM, MikroORM/);
    expect(README).toContain('`npm install lifespan-orm knex better-sqlite3`');
    expect(README).toMatch(/"experimentalDecorators": true,\s+"emitDecoratorMetadata": true/);
    expect(README).toMatch(/need \*\*Node 22\*\*: `@azure\/cosmos` 4\.10 and later, and\s+`better-sqlite3` 13/);
  });

  test("the getting-started tsconfig loads Node's types itself (TypeScript 6 no longer loads @types by default)", () => {
    // `npm install --save-dev typescript @types/node` now brings TypeScript 6, where `types` defaults to
    // [] and `npx tsc` fails with TS2591 (Cannot find name 'process') unless the tsconfig names node.
    const tsconfig = JSON.parse(readmeFiles(path.join(ROOT, 'README.md'))['tsconfig.json'] ?? '{}') as {
      compilerOptions?: { types?: string[] };
    };
    expect(tsconfig.compilerOptions?.types).toContain('node');
    expect(README).toContain('npm install --save-dev typescript @types/node');
  });

  test('does not tell users to import reflect-metadata', () => {
    expect(README).not.toContain("import 'reflect-metadata'");
  });

  test('links the references: CLI, API, error codes, troubleshooting, one page per store', () => {
    for (const page of ['docs/cli.md', 'docs/api/index.md', 'docs/errors.md', 'docs/troubleshooting.md']) {
      expect(README).toContain(`](${page})`);
    }
    for (const store of STORE_NAMES) {
      expect(README).toContain(`](docs/stores/${store}.md)`);
      const page = fs.readFileSync(path.join(ROOT, 'docs', 'stores', `${store}.md`), 'utf8');
      expect(sections(page)[0]).toBe('Getting started');
    }
  });

  test('links contributor documents in the repository, never inside the package', () => {
    for (const doc of CONTRIBUTOR_DOCS) {
      expect(README).not.toContain(`](${doc})`);
      expect(README).toContain(`/blob/main/${doc})`);
    }
  });
});
