'use strict';
/**
 * Prints every batch of lifespan's SQLite purge of the bench's 2,000,000-row table (rows, ms) and
 * the WAL checkpoints between them, for `runs` purges of a fresh copy of one template:
 *   node bench/tools/purge-batches.js [runs] [--budget=ms] [--dir=/tmp/purge-batches]
 * What the purge case reports as one number (the worst batch) shows here as the walk it came from:
 * where in the table rows start costing more, and how the sizer answered.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const conn = require('../lib/connections');
const lifespan = require('../lib/lifespan');
const { benchModel } = require('../lib/entities');
const { sqlitePurgeTemplate } = require('../cases/purge');

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1);
const budget = arg('budget') ? Number(arg('budget')) : undefined;
const dir = arg('dir') ?? path.join(os.tmpdir(), 'purge-batches');

async function main() {
  fs.mkdirSync(dir, { recursive: true });
  const info = { mode: 'file', dir };
  const template = path.join(dir, 'template.db');
  if (!fs.existsSync(template)) await sqlitePurgeTemplate({ info, log: console.error }, template, 2_000_000);
  const run = path.join(dir, 'run.db');
  for (let r = 0; r < runs; r++) {
    for (const f of [run, `${run}-wal`, `${run}-shm`]) fs.rmSync(f, { force: true });
    fs.copyFileSync(template, run);
    const knex = conn.sqliteKnex(info, 'run', run);
    const { RelationalStore } = lifespan.relational();
    const session = await new RelationalStore({ knex, ttl: 'emulate' }).open(benchModel());
    const batches = [];
    let began = null;
    const hooks = {
      beforeBatch: () => {
        began ??= performance.now();
      },
      afterBatch: (_table, rows) => {
        batches.push(`${rows}:${(performance.now() - began).toFixed(1)}`);
        began = null;
      },
      between: (_table, ms) => batches.push(`checkpoint:${ms.toFixed(1)}`),
    };
    const started = performance.now();
    const result = await session.purgeExpired(budget ? { batchBudgetMs: budget } : {}, hooks);
    const ms = performance.now() - started;
    const worst = Math.max(...batches.filter((b) => !b.startsWith('c')).map((b) => Number(b.split(':')[1])));
    console.log(`run ${r + 1}: ${result.deleted} rows in ${ms.toFixed(0)} ms, ${result.batches} batches, worst ${worst} ms`);
    console.log(`  rows:ms ${batches.join(' ')}`);
    await session.close();
    await knex.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
