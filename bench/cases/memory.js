'use strict';
/**
 * Case 8: memory of one large unit of work. One unit of work of N inserts (per-write TTL) on
 * SQLite through lifespan, against the raw driver inserting the same rows (built first, as the
 * entities of a unit of work are) in one transaction with its prepared statement. Each side runs in a fresh process of its own (so its peak RSS is its
 * own), alternating, `runs` times; reported: the peak RSS of each and its growth over the
 * process's RSS right before the work (modules loaded, table created).
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { summarize, pairedRatios } = require('../lib/stats');
const { atMost } = require('../lib/measure');

const TARGET = 1.25;

/** One side in this process (run as a child): { baseMb, peakMb, ms }. */
async function child({ side, rows, file }) {
  const { performance } = require('node:perf_hooks');
  const conn = require('../lib/connections');
  const { BenchSession, newSession, ttlOf } = require('../lib/entities');
  const SQL = require('../lib/reference-sql');
  const info = { mode: 'file', dir: path.dirname(file) };
  const knex = conn.sqliteKnex(info, 'memory', file);
  const { openBenchStore } = require('../lib/bench-store');
  const db = await openBenchStore(knex);
  const handle = await conn.sqliteHandle(knex);
  const insert = handle.prepare(SQL.sqlite.insert);
  globalThis.gc?.();
  const baseMb = process.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  if (side === 'lifespan') {
    const uow = db.unitOfWork();
    for (let i = 0; i < rows; i++) uow.insert(newSession(BenchSession, i), { ttl: ttlOf(i) });
    await uow.commit();
  } else {
    // The same work: the rows exist before the transaction, as a unit of work's entities do.
    const sessions = [];
    for (let i = 0; i < rows; i++) sessions.push(newSession(BenchSession, i));
    handle.transaction(() => {
      for (let i = 0; i < rows; i++) {
        const s = sessions[i];
        insert.run(s.id, s.owner, s.payload, s.hits, Date.now(), ttlOf(i));
      }
    })();
  }
  const ms = performance.now() - started;
  const count = handle.prepare('SELECT count(*) AS n FROM "bench_sessions"').get().n;
  if (count !== rows) throw new Error(`${side} wrote ${count} rows, not ${rows}`);
  await db.close();
  await knex.destroy();
  return { baseMb, peakMb: process.resourceUsage().maxRSS / 1024, ms };
}

function runChild(side, rows, dir) {
  const file = path.join(dir, `memory-${side}.db`);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  return new Promise((resolve, reject) => {
    const proc = fork(path.join(__dirname, 'memory.js'), [], { execArgv: [], serialization: 'advanced' });
    proc.once('message', (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
    proc.once('error', reject);
    proc.send({ side, rows, file });
  });
}

async function sqlite(ctx) {
  const { options, info } = ctx;
  if (info.mode === 'memory') {
    ctx.note('the memory case writes SQLite files; skipped in memory mode');
    return [];
  }
  const rows = options.memoryRows;
  const measured = { lifespan: [], raw: [] };
  for (let round = 0; round < options.runs; round++) {
    const order = round % 2 === 0 ? ['lifespan', 'raw'] : ['raw', 'lifespan'];
    for (const side of order) {
      const m = await runChild(side, rows, info.dir);
      measured[side].push(m);
      ctx.log(
        `round ${round + 1}/${options.runs}: ${side} peak ${m.peakMb.toFixed(0)} MiB (base ${m.baseMb.toFixed(0)})`,
      );
    }
  }
  const peak = (side) => measured[side].map((m) => m.peakMb);
  const growth = (side) => measured[side].map((m) => m.peakMb - m.baseMb);
  const mib = (samples) => {
    const st = summarize(samples);
    return { stats: st, text: `${st.median.toFixed(0)} MiB (${st.min.toFixed(0)}–${st.max.toFixed(0)})` };
  };
  const params = { rows, runs: options.runs };
  return [
    {
      case: 8,
      store: 'sqlite',
      measure: `peak RSS, one unit of work of ${rows} inserts (per-write TTL)`,
      subject: { name: 'lifespan unitOfWork()', ...mib(peak('lifespan')) },
      reference: { name: 'better-sqlite3: one transaction', ...mib(peak('raw')) },
      ratio: pairedRatios(peak('lifespan'), peak('raw')),
      params,
      target: atMost(TARGET),
      extra: `growth over the process before the work: lifespan ${summarize(growth('lifespan')).median.toFixed(0)} MiB, raw ${summarize(growth('raw')).median.toFixed(0)} MiB`,
    },
  ];
}

if (require.main === module) {
  process.once('message', (job) => {
    child(job)
      .catch((error) => ({ error: error && error.stack ? error.stack : String(error) }))
      .then((answer) => process.send(answer, () => process.exit(0)));
  });
}

module.exports = { title: 'memory of one large unit of work', run: { sqlite } };
