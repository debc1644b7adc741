'use strict';
/**
 * Case 10 (issue 25): the expiry forecast. A table of N rows with expiries spread from an hour ago
 * to 60 days ahead (and a tenth that never expire); lifespan's db.expiryForecast() (one GROUP BY
 * over expires_at per table) against the same query written by hand on the raw driver. Both sides
 * must count the same rows into the same buckets.
 */
const lifespan = require('../lib/lifespan');
const conn = require('../lib/connections');
const SQL = require('../lib/reference-sql');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
const { driverLabel } = require('../lib/versions');

const FORECAST_TARGET = 1.25;
const TABLE = 'bench_forecast';
const BOUNDS_MS = [3600, 86400, 7 * 86400, 30 * 86400].map((s) => s * 1000);

class BenchForecast {
  constructor() {
    this.id = '';
    this.owner = '';
  }
}

function forecastModel() {
  return new lifespan.ModelBuilder()
    .entity(BenchForecast, (e) =>
      e
        .toCollection(TABLE)
        .key((x) => x.id)
        .field((x) => x.owner)
        .timeToLive('1h'),
    )
    .build();
}

/** The forecast by hand: the bucket of each row from its remaining milliseconds, grouped. */
function handQuery(remaining) {
  const cases = BOUNDS_MS.map((b, i) => `WHEN rem <= ${b} THEN ${i + 1}`).join(' ');
  return (
    `SELECT bucket, COUNT(*) AS n FROM (SELECT CASE WHEN ex IS NULL THEN -1 WHEN rem <= 0 THEN 0 ${cases} ELSE 5 END AS bucket ` +
    `FROM (SELECT "expires_at" AS ex, ${remaining} AS rem FROM "${TABLE}") r) b GROUP BY bucket`
  );
}

/** Bucket counts in one shape for both sides: index → count. */
function fromLifespan(report) {
  const f = report.entries[0];
  return [f.never, f.due, ...f.buckets.map((b) => b.count)];
}

function fromRows(rows) {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const row of rows) counts[Number(row.bucket) + 1] += Number(row.n);
  return counts;
}

function rowOf(store, measured, options, total, reference) {
  const same = JSON.stringify(measured.lifespan.metrics[0]) === JSON.stringify(measured.raw.metrics[0]);
  if (!same) throw new Error(`forecast: lifespan and the hand query disagree on ${store}`);
  return compareRow(measured, 'lifespan', 'raw', {
    case: 10,
    store,
    measure: `expiry forecast of ${total} rows (5 buckets, due, never)`,
    subjectLabel: 'lifespan expiryForecast()',
    referenceLabel: `${reference}: the same GROUP BY by hand`,
    params: { rows: total, runs: options.runs, warmup: options.warmup },
    target: atMost(FORECAST_TARGET),
    extra: `counts ${JSON.stringify(measured.raw.metrics[0])} (never, due, buckets)`,
  });
}

async function sqlite(ctx) {
  const { options, info } = ctx;
  const total = options.forecastRows;
  const { RelationalStore } = lifespan.relational();
  const knex = conn.sqliteKnex(info, 'forecast');
  const db = await lifespan.connect(forecastModel(), new RelationalStore({ knex, ttl: 'emulate' }));
  await db.ensureCollections();
  const handle = await conn.sqliteHandle(knex);
  handle.prepare(`DELETE FROM "${TABLE}"`).run();
  handle
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
       INSERT INTO "${TABLE}" ("id", "owner", "expires_at")
       SELECT 'r' || i, 'o' || (i % 1000),
         CASE WHEN i % 10 = 0 THEN NULL ELSE ${SQL.sqlite.now} - 3600000 + (i * 7919 % 5184000) * 1000 END
       FROM n`,
    )
    .run(total);
  const hand = handle.prepare(handQuery(`("expires_at" - ${SQL.sqlite.now})`));
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    sides: {
      lifespan: async () => fromLifespan(await db.expiryForecast()),
      raw: async () => fromRows(hand.all()),
    },
  });
  await db.close();
  await knex.destroy();
  return [rowOf('sqlite', measured, options, total, driverLabel('better-sqlite3'))];
}

async function postgres(ctx) {
  const { options, info } = ctx;
  const total = options.forecastRows;
  const { RelationalStore } = lifespan.relational();
  const knex = conn.pgKnex(info);
  await conn.dropTables(knex, [TABLE]);
  const db = await lifespan.connect(forecastModel(), new RelationalStore({ knex, ttl: 'emulate' }));
  await db.ensureCollections();
  const client = await conn.rawPg(info);
  await client.query(
    `INSERT INTO "${TABLE}" ("id", "owner", "expires_at")
     SELECT 'r' || i, 'o' || (i % 1000),
       CASE WHEN i % 10 = 0 THEN NULL ELSE now() - interval '1 hour' + (i * 7919 % 5184000) * interval '1 second' END
     FROM generate_series(0, $1 - 1) AS i`,
    [total],
  );
  await client.query(`VACUUM ANALYZE "${TABLE}"`);
  const hand = handQuery('CAST(extract(epoch from ("expires_at" - now())) * 1000 AS double precision)');
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    sides: {
      lifespan: async () => fromLifespan(await db.expiryForecast()),
      raw: async () => fromRows((await client.query(hand)).rows),
    },
  });
  await client.end();
  await conn.dropTables(knex, [TABLE]);
  await db.close();
  await knex.destroy();
  return [rowOf('postgres', measured, options, total, driverLabel('pg'))];
}

module.exports = { run: { sqlite, postgres } };
