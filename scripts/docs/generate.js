'use strict';
/**
 * `npm run docs`: writes the generated pages, docs/cli.md (from the built CLI program, so build
 * first) and docs/errors.md (from the sources). `--check` writes nothing and exits 1 when a page
 * is stale. The API reference (docs/api/) is TypeDoc's, made by `npm run docs:api` at pack time.
 */
const fs = require('node:fs');
const path = require('node:path');
const { renderCliReference } = require('./render-cli');
const { renderErrorCodes } = require('./render-errors');

const ROOT = path.resolve(__dirname, '..', '..');

/** The CLI program exactly as the installed bin builds it; its output functions are never called. */
function builtProgram() {
  const { buildProgram } = require(path.join(ROOT, 'dist', 'cli', 'main.js'));
  const io = { out: () => undefined, err: () => undefined, isTty: false, confirm: async () => false };
  return buildProgram(io, () => undefined);
}

function generatedPages(program) {
  return {
    'docs/cli.md': renderCliReference(program),
    'docs/errors.md': renderErrorCodes(path.join(ROOT, 'src')),
  };
}

function main(argv) {
  const check = argv.includes('--check');
  const stale = [];
  for (const [file, text] of Object.entries(generatedPages(builtProgram()))) {
    const full = path.join(ROOT, file);
    const current = fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : '';
    if (current === text) continue;
    if (check) stale.push(file);
    else fs.writeFileSync(full, text);
  }
  if (stale.length > 0) {
    process.stderr.write(`stale: ${stale.join(', ')}; run npm run docs and commit the result\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { generatedPages };
