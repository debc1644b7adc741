'use strict';
/**
 * One job (a case on one store) in a process of its own, forked by bench/run.js: every job starts
 * from a cold, equal process, its peak RSS is its own, and a CPU profile (--profile) covers it alone.
 * Receives { caseName, store, options, info } and answers { rows, notes, maxRssMb, seconds } or { error }.
 */
const { performance } = require('node:perf_hooks');

const CASES = {
  write: () => require('../cases/write'),
  reads: () => require('../cases/reads'),
  purge: () => require('../cases/purge'),
  model: () => require('../cases/model'),
  plan: () => require('../cases/plan'),
  peers: () => require('../cases/peers'),
  cosmos: () => require('../cases/cosmos'),
  redis: () => require('../cases/redis'),
  'redis-cluster': () => require('../cases/redis-cluster'),
  memory: () => require('../cases/memory'),
  versions: () => require('../cases/versions'),
  iterate: () => require('../cases/iterate'),
  'expiry-instant': () => require('../cases/expiry-instant'),
  forecast: () => require('../cases/forecast'),
  scale: () => require('../cases/scale'),
};

async function runJob({ caseName, store, options, info }) {
  const started = performance.now();
  const notes = [];
  const ctx = {
    options,
    info,
    log: (message) => process.stderr.write(`  [${caseName}:${store}] ${message}\n`),
    note: (text) => notes.push(text),
  };
  const rows = (await CASES[caseName]().run[store](ctx)).filter(Boolean);
  return {
    rows,
    notes,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    seconds: (performance.now() - started) / 1000,
  };
}

process.once('message', (job) => {
  runJob(job)
    .catch((error) => ({ error: error && error.stack ? error.stack : String(error) }))
    .then((answer) => process.send(answer, () => process.exit(0)));
});
