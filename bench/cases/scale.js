'use strict';
/**
 * Case 14: costs at scale (issue 29). Each operation at two sizes ten times apart, reported as the
 * ratio of its cost per item at the larger size to its cost per item at the smaller: flat (≤ 1.2×)
 * is the target, a cost that grows with the work and not with the table. The raw driver's own
 * statement at the same two sizes is the control: its ratio is the database's own growth (reported,
 * no target), so a lifespan ratio above the target and above the control is lifespan's.
 *
 * - purge: purgeExpired() against one DELETE (case 3's sides), half of the rows expired; SQLite
 *   2,000,000 and 20,000,000 rows, PostgreSQL 400,000 and 4,000,000 (`--scale-sqlite`,
 *   `--scale-postgres` set the smaller size). The four sides (two sizes × lifespan / DELETE)
 *   interleave, each run on a fresh copy of its size's table.
 * - iterate: iterate() over every row against the raw keyset paging of case 10; SQLite 200,000 and
 *   2,000,000 rows, PostgreSQL 40,000 and 400,000 (`--scale-iterate-sqlite`,
 *   `--scale-iterate-postgres`). One size is filled at a time; its two sides interleave.
 *
 * `--scale-runs` timed rounds per size (3 by default: a 20,000,000-row purge takes seconds a run).
 */
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const lifespan = require('../lib/lifespan');
const conn = require('../lib/connections');
const SQL = require('../lib/reference-sql');
const { benchModel, BenchSession } = require('../lib/entities');
const { openBenchStore } = require('../lib/bench-store');
const { interleave, atMost } = require('../lib/measure');
const { summarize, pairedRatios, formatMs, formatRatio } = require('../lib/stats');
const { driverLabel } = require('../lib/versions');
const { lifespanPurge, rawSqlitePurge, openPurgeSide, sqlitePurgeTemplate, fillPostgresPurge } = require('./purge');
const { FILL, rawPager } = require('./iterate');

const CASE = 14;
const FLAT_TARGET = 1.2;
const SCALE = 10;

const count = (n) => n.toLocaleString('en-US');

/** The timing of one scale comparison: no extra rounds for fast sides (every side runs at two sizes). */
function scaleTiming(options) {
  return { runs: options.scaleRuns, warmup: options.warmup, budgetMs: 0, only: null };
}

/**
 * interleave() over the sides of both sizes: `sides` maps a name to { who, n, run }; --sides
 * (lifespan, raw) keeps only those sides. The measured sides keep their size.
 */
async function measureSizes(ctx, sides, prepare) {
  const kept = Object.entries(sides).filter(([, s]) => !ctx.options.sides || ctx.options.sides.includes(s.who));
  const measured = await interleave({
    ...scaleTiming(ctx.options),
    log: ctx.log,
    prepare: (name) => prepare(sides[name]),
    sides: Object.fromEntries(kept.map(([name, s]) => [name, logged(ctx, name, s.run)])),
  });
  return Object.fromEntries(Object.entries(measured).map(([name, m]) => [name, { ...m, ...sides[name] }]));
}

/** A side that logs each run (a run at the larger size can take minutes; the warm-up is not in interleave's log). */
function logged(ctx, name, run) {
  return async (round) => {
    const started = performance.now();
    const metrics = await run();
    const what = round < 0 ? 'warm-up' : `round ${round + 1}`;
    ctx.log(`${name} (${what}): ${metrics.items} items in ${formatMs(performance.now() - started)}`);
    return metrics;
  };
}

/** ms per item of every run of a side (its metrics say how many items the run handled). */
function perItem(side) {
  return side.times.map((ms, i) => ms / side.metrics[i].items);
}

/** Every run of a side at a size handled the same number of items, the number `expected` says. */
function checkItems(measured, expected) {
  for (const [name, side] of Object.entries(measured)) {
    const wrong = side.metrics.filter((m) => m.items !== expected(side.n));
    if (wrong.length > 0) throw new Error(`${name} handled ${wrong[0].items} items, not ${expected(side.n)}`);
  }
}

/** One row: a side's cost per item at the larger size over its cost at the smaller, paired by round. */
function scaleRow(store, measured, { who, label, what, sizes, target, control }) {
  const small = Object.values(measured).find((s) => s.who === who && s.n === sizes[0]);
  const large = Object.values(measured).find((s) => s.who === who && s.n === sizes[1]);
  if (!small || !large) return null;
  const [atLarge, atSmall] = [perItem(large), perItem(small)];
  const ratio = pairedRatios(atLarge, atSmall);
  const total = (side) => formatMs(summarize(side.times).median);
  return {
    case: CASE,
    store,
    measure: `${what}: cost per item at ${count(sizes[1])} rows / at ${count(sizes[0])} rows${control ? ' (control)' : ''}`,
    subject: { name: `${label} at ${count(sizes[1])}`, stats: summarize(atLarge) },
    reference: { name: `${label} at ${count(sizes[0])}`, stats: summarize(atSmall) },
    ratio,
    params: { sizes, items: [small.metrics[0].items, large.metrics[0].items], runs: ratio.n },
    target: control ? null : target,
    extra:
      `${label}: ${small.metrics[0].items} items in ${total(small)}, ${large.metrics[0].items} items in ${total(large)} ` +
      `(per item ${formatMs(summarize(atSmall).median)} → ${formatMs(summarize(atLarge).median)}, ${formatRatio(ratio.median)})`,
  };
}

function rowsOf(store, measured, what, sizes, labels) {
  const flat = atMost(FLAT_TARGET, `≤ ${FLAT_TARGET}× (flat)`);
  return [
    scaleRow(store, measured, { who: 'lifespan', label: labels.lifespan, what, sizes, target: flat }),
    scaleRow(store, measured, { who: 'raw', label: labels.raw, what, sizes, control: true }),
  ];
}

async function sqlitePurge(ctx) {
  const { options, info } = ctx;
  if (info.mode === 'memory') {
    ctx.note('the scale purge copies a prepared SQLite file before every run; skipped in memory mode');
    return [];
  }
  const sizes = [options.scaleSqlite, options.scaleSqlite * SCALE];
  const templates = Object.fromEntries(sizes.map((n) => [n, path.join(info.dir, `scale-purge-${n}-template.db`)]));
  const run = path.join(info.dir, 'scale-purge-run.db');
  const remove = (file) => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(file + suffix, { force: true }));
  let open = null;
  const closeOpen = async () => {
    if (open) await open.close();
    open = null;
  };
  try {
    for (const n of sizes) await sqlitePurgeTemplate(ctx, templates[n], n);
    const sides = {};
    for (const n of sizes) {
      sides[`lifespan ${n}`] = {
        who: 'lifespan',
        n,
        run: async () => ({ items: (await lifespanPurge(open.session, open.handle)).deleted }),
      };
      sides[`raw ${n}`] = {
        who: 'raw',
        n,
        run: async () => ({ items: rawSqlitePurge(open.handle).deleted }),
      };
    }
    const measured = await measureSizes(ctx, sides, async (side) => {
      await closeOpen();
      remove(run);
      fs.copyFileSync(templates[side.n], run);
      open = await openPurgeSide(info, 'scale-purge', run, side.who === 'lifespan');
    });
    checkItems(measured, (n) => n / 2);
    return rowsOf('sqlite', measured, 'purge of the expired half', sizes, {
      lifespan: 'lifespan purgeExpired()',
      raw: `${driverLabel('better-sqlite3')}: one DELETE`,
    });
  } finally {
    await closeOpen();
    for (const file of [run, ...Object.values(templates)]) remove(file);
  }
}

async function postgresPurge(ctx) {
  const { options, info } = ctx;
  const sizes = [options.scalePostgres, options.scalePostgres * SCALE];
  const template = (n) => `scale_purge_${n}`;
  const { RelationalStore } = lifespan.relational();
  const knex = conn.pgKnex(info);
  await conn.dropTables(knex, [...conn.BENCH_TABLES, ...sizes.map(template)]);
  const session = await new RelationalStore({ knex, ttl: 'emulate' }).open(benchModel());
  const client = await conn.rawPg(info);
  try {
    await session.ensureCollections();
    // Autovacuum off on this table, as in case 3: a vacuum started by a previous run would land on a random side.
    await client.query('ALTER TABLE "bench_purge" SET (autovacuum_enabled = false)');
    for (const n of sizes) {
      await client.query(`CREATE TABLE "${template(n)}" (LIKE "bench_purge")`);
      await fillPostgresPurge(client, template(n), n);
      ctx.log(`template of ${n} rows filled`);
    }
    const sides = {};
    for (const n of sizes) {
      sides[`lifespan ${n}`] = {
        who: 'lifespan',
        n,
        run: async () => ({ items: (await lifespanPurge(session)).deleted }),
      };
      sides[`raw ${n}`] = {
        who: 'raw',
        n,
        run: async () => ({ items: (await client.query(SQL.postgres.purge)).rowCount }),
      };
    }
    const measured = await measureSizes(ctx, sides, async (side) => {
      await client.query('TRUNCATE "bench_purge"');
      await client.query(`INSERT INTO "bench_purge" SELECT * FROM "${template(side.n)}"`);
      await client.query('VACUUM ANALYZE "bench_purge"');
    });
    checkItems(measured, (n) => n / 2);
    return rowsOf('postgres', measured, 'purge of the expired half', sizes, {
      lifespan: 'lifespan purgeExpired()',
      raw: `${driverLabel('pg')}: one DELETE`,
    });
  } finally {
    await conn.dropTables(knex, [...conn.BENCH_TABLES, ...sizes.map(template)]);
    await client.end();
    await session.close();
    await knex.destroy();
  }
}

/** iterate() over every row against the raw keyset paging, one size filled at a time. */
async function iterate(ctx, store) {
  const { options, info } = ctx;
  if (store === 'sqlite' && info.mode === 'memory') {
    ctx.note('the scale case walks SQLite files; skipped in memory mode');
    return [];
  }
  const smaller = store === 'sqlite' ? options.scaleIterateSqlite : options.scaleIteratePostgres;
  const sizes = [smaller, smaller * SCALE];
  const knex = store === 'sqlite' ? conn.sqliteKnex(info, 'scale-iterate') : conn.pgKnex(info);
  const db = await openBenchStore(knex);
  const raw = await rawPager(store, knex, info);
  const pageSize = options.pageSize;
  const repo = db.repository(BenchSession);
  const walkLifespan = async () => {
    let items = 0;
    for await (const session of repo.iterate({}, { pageSize })) if (session.id) items += 1;
    return { items };
  };
  const walkRaw = async () => {
    let items = 0;
    for (let page = await raw.page(undefined, pageSize); !page.done; page = await raw.page(page.next, pageSize)) {
      items += page.items.length;
    }
    return { items };
  };
  const measured = {};
  try {
    for (const n of sizes) {
      await knex('bench_sessions').del();
      await knex.raw(FILL[store](n));
      if (store === 'postgres') await knex.raw('VACUUM ANALYZE "bench_sessions"');
      ctx.log(`filled ${n} rows`);
      const sides = {
        [`lifespan ${n}`]: { who: 'lifespan', n, run: walkLifespan },
        [`raw ${n}`]: { who: 'raw', n, run: walkRaw },
      };
      Object.assign(measured, await measureSizes(ctx, sides, async () => undefined));
    }
    checkItems(measured, (n) => n);
    return rowsOf(store, measured, `iterate() in pages of ${pageSize}`, sizes, {
      lifespan: 'lifespan iterate()',
      raw: raw.label,
    });
  } finally {
    await raw.close();
    await db.close();
    await conn.dropTables(knex, conn.BENCH_TABLES);
    await knex.destroy();
  }
}

module.exports = {
  title: 'costs at scale (cost per item at ten times the size)',
  run: {
    sqlite: async (ctx) => [...(await sqlitePurge(ctx)), ...(await iterate(ctx, 'sqlite'))],
    postgres: async (ctx) => [...(await postgresPurge(ctx)), ...(await iterate(ctx, 'postgres'))],
  },
};
