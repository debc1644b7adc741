// An ES module consumer: every runtime export of the CommonJS build must be importable by name
// (Node detects CommonJS named exports with cjs-module-lexer; an undetected one is a SyntaxError
// for `import { X }` and missing here).
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
// Every store the installed package ships: one subpath per folder of dist/providers.
const providers = path.join(path.dirname(require.resolve('lifespan-orm')), 'providers');
const stores = readdirSync(providers, { withFileTypes: true }).filter((e) => e.isDirectory());
const missing = stores.length < 5 ? [`only ${stores.length} stores under ${providers}`] : [];
for (const entry of ['lifespan-orm', ...stores.map((e) => `lifespan-orm/${e.name}`)]) {
  const esm = await import(entry);
  for (const name of Object.keys(require(entry))) {
    if (name !== '__esModule' && !(name in esm)) missing.push(`${entry}: ${name}`);
  }
}
const { ModelBuilder, explain } = await import('lifespan-orm');
console.log(JSON.stringify({ missing, named: typeof ModelBuilder === 'function' && typeof explain === 'function' }));
