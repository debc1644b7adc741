// An ES module consumer: every runtime export of the CommonJS build must be importable by name
// (Node detects CommonJS named exports with cjs-module-lexer; an undetected one is a SyntaxError
// for `import { X }` and missing here).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const missing = [];
for (const entry of ['lifespan', 'lifespan/relational', 'lifespan/cassandra', 'lifespan/mongodb', 'lifespan/cosmos']) {
  const esm = await import(entry);
  for (const name of Object.keys(require(entry))) {
    if (name !== '__esModule' && !(name in esm)) missing.push(`${entry}: ${name}`);
  }
}
const { ModelBuilder, explain } = await import('lifespan');
console.log(JSON.stringify({ missing, named: typeof ModelBuilder === 'function' && typeof explain === 'function' }));
