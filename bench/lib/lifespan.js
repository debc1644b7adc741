'use strict';
/** lifespan as a user gets it: the compiled package in dist/ (`npm run bench` builds it first). */
const path = require('node:path');
const fs = require('node:fs');

const DIST = path.resolve(__dirname, '..', '..', 'dist');

if (!fs.existsSync(path.join(DIST, 'index.js'))) {
  throw new Error(`${DIST}/index.js is missing: run \`npm run build\` (npm run bench does it for you)`);
}

module.exports = {
  ...require(path.join(DIST, 'index.js')),
  relational: () => require(path.join(DIST, 'providers', 'relational', 'index.js')),
  cassandra: () => require(path.join(DIST, 'providers', 'cassandra', 'index.js')),
};
