'use strict';
/**
 * Case 3: purging expired rows. A table of N rows, every other one expired (so the deletes are
 * spread over the whole key range), restored to the same state before every run; lifespan's
 * purgeExpired() (batches sized by time: on SQLite a range of the expiry index, on PostgreSQL a range
 * of heap blocks) against one raw DELETE … WHERE expires_at <= now. Also reported: the longest single batch (how long
 * lifespan holds the write lock: SQLite's database lock, PostgreSQL's row locks), rows per second.
 */
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const lifespan = require('../lib/lifespan');
const { benchModel } = require('../lib/entities');
const conn = require('../lib/connections');
const SQL = require('../lib/reference-sql');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
const { summarize, formatMs } = require('../lib/stats');
const { driverLabel } = require('../lib/versions');

const PURGE_TARGET = 1.25;
const LOCK_TARGET_MS = 100;

/**
 * lifespan's purge with its default batching (sized by the 50 ms budget, no row cap), timing each
 * batch with the purge's hooks, from right before its statements are sent to its end. On SQLite
 * (`sqlite`: the connection's handle) the application's next commit is timed with it, as with the
 * raw side: the DELETE's own commit checkpoints the WAL once it is over `wal_autocheckpoint`, the
 * purge leaves what it wrote after its last checkpoint to that next commit.
 */
async function lifespanPurge(session, sqlite) {
  let longest = 0;
  let checkpoints = 0;
  let longestCheckpoint = 0;
  const batchTimes = [];
  let started = null;
  // Every batch, also those that deleted nothing (onProgress hears only of the others): from its
  // first send (retries included) to its end.
  const hooks = {
    beforeBatch: () => {
      if (started === null) started = performance.now();
    },
    afterBatch: () => {
      const ms = performance.now() - started;
      started = null;
      batchTimes.push(ms);
      if (ms > longest) longest = ms;
    },
    // SQLite's WAL checkpoints, run between batches (no write lock held, but the event loop waits).
    between: (_table, ms) => {
      checkpoints += 1;
      if (ms > longestCheckpoint) longestCheckpoint = ms;
    },
  };
  const result = await session.purgeExpired({}, hooks);
  if (sqlite) nextCommit(sqlite);
  return {
    deleted: result.deleted,
    batches: result.batches,
    longestMs: longest,
    batchMedianMs: summarize(batchTimes).median,
    checkpoints,
    longestCheckpointMs: longestCheckpoint,
  };
}

function purgeRows(store, measured, options, total, keyed) {
  const life = measured.lifespan;
  const raw = measured.raw;
  if (!life || !raw) return [];
  const deleted = life.metrics[0].deleted;
  const rawLabel = `${driverLabel(store === 'sqlite' ? 'better-sqlite3' : 'pg')}: one DELETE`;
  const rate = (side) => Math.round(deleted / (summarize(side.times).median / 1000));
  const longest = summarize(life.metrics.map((m) => m.longestMs));
  const batchMedian = summarize(life.metrics.map((m) => m.batchMedianMs)).median;
  const checkpoint = summarize(life.metrics.map((m) => m.longestCheckpointMs ?? 0));
  const measure = `purge ${deleted} expired of ${total} rows${keyed ? ` (${keyed})` : ''}`;
  const params = { rows: total, expired: deleted, runs: options.runs, warmup: options.warmup };
  return [
    compareRow(measured, 'lifespan', 'raw', {
      case: 3,
      store,
      measure,
      subjectLabel: 'lifespan purgeExpired()',
      referenceLabel: rawLabel,
      params,
      target: atMost(PURGE_TARGET),
      extra: `lifespan ${rate(life)} rows/s in ${life.metrics[0].batches} batches (sized to 50 ms); one DELETE ${rate(raw)} rows/s`,
    }),
    {
      case: 3,
      store,
      measure: 'longest write-lock hold (one batch / the DELETE)',
      subject: { name: 'lifespan batch', stats: longest },
      reference: { name: 'one DELETE', stats: summarize(raw.times) },
      ratio: null,
      params,
      target: { kind: 'bool', text: `≤ ${LOCK_TARGET_MS} ms`, met: longest.max <= LOCK_TARGET_MS },
      extra:
        `median batch ${formatMs(batchMedian)}; worst batch over all runs ${formatMs(longest.max)}` +
        (checkpoint.max > 0
          ? `; ${life.metrics[0].checkpoints} WAL checkpoints between batches, longest ${formatMs(checkpoint.max)}`
          : ''),
    },
  ];
}

/**
 * The application's next write after a purge: one row in a table of its own. Its commit runs the
 * WAL checkpoint SQLite would run there (https://www.sqlite.org/wal.html#automatic_checkpoint).
 */
function nextCommit(handle) {
  handle.prepare('INSERT INTO "bench_next_commit" ("n") VALUES (1)').run();
}

/** A raw DELETE of the due rows and the application's next commit after it. */
function rawSqlitePurge(handle) {
  const deleted = handle.prepare(SQL.sqlite.purge).run().changes;
  nextCommit(handle);
  return { deleted };
}

/** The small table a purge job meets every minute: its rows keyed by random 32-hex ids. */
const SMALL_SQLITE_ROWS = 20_000;

async function sqlite(ctx) {
  const large = await sqliteCase(ctx, ctx.options.purgeSqlite, "'r' || i", 'purge');
  const small = await sqliteJobCase(ctx, SMALL_SQLITE_ROWS, 'lower(hex(randomblob(16)))', 'purge-small');
  return [...large, ...small];
}

/**
 * The small table as a purge job meets it: one long-lived session (a service's, purging every
 * minute) and the raw driver on that same connection, the table refilled between runs (untimed) from
 * an attached copy of the template and the WAL checkpointed and truncated, so every run starts from
 * the same rows and an empty WAL, as a fresh copy does.
 */
async function sqliteJobCase(ctx, total, keyExpr, name) {
  const { options, info } = ctx;
  if (info.mode === 'memory') {
    ctx.note('the SQLite purge needs a file database (it refills from an attached template); skipped in memory mode');
    return [];
  }
  const template = path.join(info.dir, `${name}-template.db`);
  const run = path.join(info.dir, `${name}-run.db`);
  await sqlitePurgeTemplate(ctx, template, total, keyExpr);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(run + suffix, { force: true });
  fs.copyFileSync(template, run);
  const side = await openPurgeSide(info, name, run, true);
  const handle = await conn.sqliteHandle(side.knex);
  handle.prepare('ATTACH DATABASE ? AS template').run(template);
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    prepare: async () => {
      handle.exec(
        'DELETE FROM main."bench_purge"; INSERT INTO main."bench_purge" SELECT * FROM template."bench_purge"',
      );
      handle.pragma('main.wal_checkpoint(TRUNCATE)');
    },
    sides: {
      lifespan: () => lifespanPurge(side.session, handle),
      raw: async () => rawSqlitePurge(handle),
    },
  });
  handle.exec('DETACH DATABASE template');
  await side.close();
  checkSameWork(measured);
  return purgeRows('sqlite', measured, options, total, 'random 32-hex keys, one long-lived session');
}

async function sqliteCase(ctx, total, keyExpr, name) {
  const { options, info } = ctx;
  if (info.mode === 'memory') {
    ctx.note(
      'the SQLite purge needs a file database (it copies a prepared one before every run); skipped in memory mode',
    );
    return [];
  }
  const template = path.join(info.dir, `${name}-template.db`);
  const run = path.join(info.dir, `${name}-run.db`);
  await sqlitePurgeTemplate(ctx, template, total, keyExpr);
  let open = null;
  const closeOpen = async () => {
    if (!open) return;
    await open.close();
    open = null;
  };
  const restore = () => {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(run + suffix, { force: true });
    fs.copyFileSync(template, run);
  };
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    prepare: async (side) => {
      await closeOpen();
      restore();
      open = await openPurgeSide(info, 'purge', run, side === 'lifespan');
    },
    sides: {
      lifespan: () => lifespanPurge(open.session, open.handle),
      raw: async () => rawSqlitePurge(open.handle),
    },
  });
  await closeOpen();
  checkSameWork(measured);
  return purgeRows('sqlite', measured, options, total);
}

/**
 * A SQLite file holding lifespan's own schema for the purge table (table and expires_at index) and
 * `total` rows, every other one expired: the state every purge run starts from (a copy of it).
 */
async function sqlitePurgeTemplate(ctx, template, total, keyExpr = "'r' || i") {
  const { RelationalStore } = lifespan.relational();
  const knex = conn.sqliteKnex(ctx.info, 'purge', template);
  const db = await lifespan.connect(benchModel(), new RelationalStore({ knex, ttl: 'emulate' }));
  await db.ensureCollections();
  const handle = await conn.sqliteHandle(knex);
  const started = performance.now();
  handle
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
       INSERT INTO "bench_purge" ("id", "owner", "hits", "expires_at")
       SELECT ${keyExpr}, 'o' || (i % 1000), i,
         CASE WHEN i % 2 = 0 THEN ${SQL.sqlite.now} - 1000 - (i % 3600000) ELSE ${SQL.sqlite.now} + 86400000 END
       FROM n`,
    )
    .run(total);
  handle.exec('CREATE TABLE "bench_next_commit" ("n" integer)');
  handle.pragma('wal_checkpoint(TRUNCATE)');
  ctx.log(`template of ${total} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await db.close();
  await knex.destroy();
}

/** Fills a PostgreSQL table shaped like bench_purge with `total` rows, every other one expired. */
async function fillPostgresPurge(client, table, total) {
  await client.query(
    `INSERT INTO "${table}" ("id", "owner", "hits", "expires_at")
     SELECT 'r' || i, 'o' || (i % 1000), i,
       CASE WHEN i % 2 = 0 THEN now() - interval '1 second' - (i % 3600) * interval '1 second' ELSE now() + interval '1 day' END
     FROM generate_series(0, $1 - 1) AS i`,
    [total],
  );
}

async function postgres(ctx) {
  const { options, info } = ctx;
  const total = options.purgePostgres;
  const { RelationalStore } = lifespan.relational();
  const model = benchModel();
  const knex = conn.pgKnex(info);
  await conn.dropTables(knex, conn.BENCH_TABLES);
  const session = await new RelationalStore({ knex, ttl: 'emulate' }).open(model);
  await session.ensureCollections();
  const client = await conn.rawPg(info);
  // Autovacuum off on this table: a vacuum started by the previous run's deletes would land on a random side.
  await client.query('ALTER TABLE "bench_purge" SET (autovacuum_enabled = false)');
  await client.query('CREATE TABLE "bench_purge_template" (LIKE "bench_purge")');
  await fillPostgresPurge(client, 'bench_purge_template', total);
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    prepare: async () => {
      await client.query('TRUNCATE "bench_purge"');
      await client.query('INSERT INTO "bench_purge" SELECT * FROM "bench_purge_template"');
      await client.query('VACUUM ANALYZE "bench_purge"');
    },
    sides: {
      lifespan: () => lifespanPurge(session),
      raw: async () => ({ deleted: (await client.query(SQL.postgres.purge)).rowCount }),
    },
  });
  await client.end();
  await session.close();
  await knex.destroy();
  checkSameWork(measured);
  return purgeRows('postgres', measured, options, total);
}

/** Both sides must have deleted the same rows, every run. */
function checkSameWork(measured) {
  const counts = new Set(Object.values(measured).flatMap((side) => side.metrics.map((m) => m.deleted)));
  if (counts.size > 1) throw new Error(`the sides deleted different numbers of rows: ${[...counts].join(', ')}`);
}

/**
 * The SQLite file `run` opened for one side of a purge comparison: a lifespan session (`lifespan`)
 * or the raw driver with the bench's pragmas; `close()` lets it go.
 */
async function openPurgeSide(info, label, run, lifespanSide) {
  if (lifespanSide) {
    const { RelationalStore } = lifespan.relational();
    const knex = conn.sqliteKnex(info, label, run);
    const session = await new RelationalStore({ knex, ttl: 'emulate' }).open(benchModel());
    const handle = await conn.sqliteHandle(knex);
    return { session, knex, handle, close: async () => (await session.close(), await knex.destroy()) };
  }
  const Database = require('better-sqlite3');
  const db = new Database(run);
  conn.sqlitePragmas(db, info.mode);
  return { db, handle: db, close: async () => db.close() };
}

module.exports = {
  title: 'purge of expired rows',
  run: { sqlite, postgres },
  // Shared with the scale case (bench/cases/scale.js).
  lifespanPurge,
  rawSqlitePurge,
  openPurgeSide,
  sqlitePurgeTemplate,
  fillPostgresPurge,
  checkSameWork,
};
