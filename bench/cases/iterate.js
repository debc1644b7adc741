'use strict';
/**
 * Case 10: pages and streams (issue 26). Two measures per store (SQLite, PostgreSQL, and Redis as
 * the store-less job):
 *
 * - iterate() over every row of a large table (SQLite 1,000,000, PostgreSQL / Redis 200,000), in a
 *   fresh process that only walks: peak RSS at 10 %, 50 % and 100 % of the walk. The target is a
 *   flat curve: the peak at 100 % within 1.2× of the peak at 10 % (memory bounded by the page, not
 *   by the rows).
 * - findPage() pages against the raw driver's own paging of the same rows: the keyset statement by
 *   hand (`WHERE id > ? AND live ORDER BY id LIMIT n`, prepared, rows built into entities) and
 *   SCAN + MGET + JSON.parse on Redis. Target ≤ 1.2×.
 *
 * Rows are written once per job by the fastest means (one INSERT … SELECT; Redis: lifespan's own
 * writes, so the stored form is exactly lifespan's), outside every measurement.
 */
const { fork } = require('node:child_process');
const path = require('node:path');
const lifespan = require('../lib/lifespan');
const conn = require('../lib/connections');
const { benchModel, BenchSession } = require('../lib/entities');
const { openBenchStore } = require('../lib/bench-store');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
const { summarize, pairedRatios } = require('../lib/stats');
const { driverLabel } = require('../lib/versions');
const { deleteKeys } = require('../lib/redis-client');

const PAGE_TARGET = 1.2;
const FLAT_TARGET = 1.2;
const COLUMNS = '"id", "owner", "payload", "hits", "createdAt"';
const PAYLOAD = 'p'.repeat(90);

const FILL = {
  sqlite: (n) =>
    `INSERT INTO "bench_sessions" (${COLUMNS}, "expires_at") ` +
    `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${n - 1}) ` +
    `SELECT 's' || printf('%07d', i), 'o' || (i % 1000), '${PAYLOAD}' || i, i, 1767225600000, ` +
    `CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER) + 3600000 FROM k`,
  postgres: (n) =>
    `INSERT INTO "bench_sessions" (${COLUMNS}, "expires_at") ` +
    `SELECT 's' || lpad(i::text, 7, '0'), 'o' || (i % 1000), '${PAYLOAD}' || i, i, now(), now() + interval '1 hour' ` +
    `FROM generate_series(0, ${n - 1}) AS i`,
};

const PAGE_SQL = {
  sqlite:
    `SELECT ${COLUMNS} FROM "bench_sessions" WHERE "id" > ? AND ("expires_at" IS NULL OR ` +
    `"expires_at" > CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)) ORDER BY "id" LIMIT ?`,
  postgres:
    `SELECT ${COLUMNS} FROM "bench_sessions" WHERE "id" > $1 AND ("expires_at" IS NULL OR ` +
    `"expires_at" > now()) ORDER BY "id" LIMIT $2`,
};

function entityOf(row) {
  return Object.assign(new BenchSession(), row, { createdAt: new Date(row.createdAt) });
}

/**
 * The child: open the store on the filled rows and walk all of them, with lifespan's iterate() or
 * the raw driver's own paging, noting peak RSS (and the heap still used after a GC) at 10/50/100 %.
 */
async function walkChild({ side, store, rows, pageSize, info, prefix }) {
  const { performance } = require('node:perf_hooks');
  const opened = await openSide(store, info, prefix);
  globalThis.gc?.();
  const baseMb = process.memoryUsage().rss / 2 ** 20;
  const marks = [Math.ceil(rows * 0.1), Math.ceil(rows * 0.5), rows];
  const at = [];
  let n = 0;
  const seen = (session) => {
    if (!session.id) throw new Error(`${side} walk yielded an entity without a key`);
    n += 1;
    if (n !== marks[at.length]) return;
    const peak = peakMb();
    globalThis.gc?.();
    at.push({ peakMb: peak, heapMb: process.memoryUsage().heapUsed / 2 ** 20 });
  };
  const started = performance.now();
  if (side === 'lifespan') {
    for await (const session of opened.db.repository(BenchSession).iterate({}, { pageSize })) seen(session);
  } else {
    const raw = store === 'redis' ? redisRawPager(opened.client, prefix) : await rawPager(store, opened.knex, info);
    let after;
    for (;;) {
      const page = await raw.page(after, pageSize);
      page.items.forEach(seen);
      if (page.done || (store === 'redis' && page.next === '0')) break;
      after = page.next;
    }
    await raw.close();
  }
  const ms = performance.now() - started;
  await opened.close();
  if (n < rows) throw new Error(`the ${side} walk yielded ${n} of ${rows} rows`);
  return { baseMb, at, ms, n };
}

function peakMb() {
  return process.resourceUsage().maxRSS / 1024;
}

/** lifespan on the job's store (tables kept: the parent filled them). */
async function openSide(store, info, prefix) {
  if (store === 'redis') {
    const { client, db } = await openRedis(prefix);
    return { db, client, close: async () => (await db.close(), client.destroy()) };
  }
  const knex = store === 'sqlite' ? conn.sqliteKnex(info, 'iterate') : conn.pgKnex(info);
  const db = await openBenchStore(knex, { fresh: false });
  return { db, knex, close: async () => (await db.close(), await knex.destroy()) };
}

async function openRedis(prefix) {
  const { createClient } = require('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' });
  client.on('error', () => undefined);
  await client.connect();
  const { RedisStore } = require('../../dist/providers/redis');
  const db = await lifespan.connect(benchModel(), new RedisStore({ client, prefix }));
  await db.ensureCollections();
  return { client, db };
}

function runWalk(job) {
  return new Promise((resolve, reject) => {
    const proc = fork(path.join(__dirname, 'iterate.js'), [], { execArgv: ['--expose-gc'], serialization: 'advanced' });
    proc.once('message', (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
    proc.once('error', reject);
    proc.send(job);
  });
}

/**
 * The memory rows of one job: lifespan's walk and the raw driver's walk of the same rows, each in a
 * fresh process, alternating. Two rows: the curve's flatness (peak at 100 % over peak at 10 % of
 * lifespan's own walk, gated on FLAT_TARGET as the case's header says), and the peak against the raw
 * walk's, reported without a target (the raw walk holds one page of plain rows, not entities).
 */
async function rssRow(ctx, store, job, reference) {
  const rounds = ctx.options.quick ? 1 : 3;
  const walks = { lifespan: [], raw: [] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? ['lifespan', 'raw'] : ['raw', 'lifespan']) {
      const walk = await runWalk({ ...job, side });
      walks[side].push(walk);
      const points = walk.at.map((a) => a.peakMb.toFixed(0)).join(' / ');
      ctx.log(
        `${side} walk ${round + 1}/${rounds}: ${walk.n} rows in ${(walk.ms / 1000).toFixed(1)} s, peak RSS at 10/50/100 %: ${points} MiB`,
      );
    }
  }
  const median = (side, i, field) => summarize(walks[side].map((w) => w.at[i][field])).median.toFixed(0);
  const curve = (side, field) => [0, 1, 2].map((i) => median(side, i, field)).join(' / ');
  const peak = (side) => walks[side].map((w) => w.at[2].peakMb);
  const mib = (samples) => {
    const st = summarize(samples);
    return { stats: st, text: `${st.median.toFixed(0)} MiB (${st.min.toFixed(0)}–${st.max.toFixed(0)})` };
  };
  const peakAt10 = walks.lifespan.map((w) => w.at[0].peakMb);
  const params = { rows: job.rows, pageSize: job.pageSize, rounds };
  const flatness = {
    case: 10,
    store,
    measure: `flatness of iterate()'s peak RSS over ${job.rows} rows, pages of ${job.pageSize}: peak at 100 % / peak at 10 %`,
    subject: { name: 'lifespan iterate() at 100 %', ...mib(peak('lifespan')) },
    reference: { name: 'lifespan iterate() at 10 %', ...mib(peakAt10) },
    ratio: pairedRatios(peak('lifespan'), peakAt10),
    params,
    target: atMost(FLAT_TARGET),
    extra: `lifespan peak RSS at 10 / 50 / 100 % of the walk: ${curve('lifespan', 'peakMb')} MiB`,
  };
  const againstRaw = {
    case: 10,
    store,
    measure: `peak RSS of a walk over ${job.rows} rows, pages of ${job.pageSize} (reported, no target)`,
    subject: { name: 'lifespan iterate()', ...mib(peak('lifespan')) },
    reference: { name: reference, ...mib(peak('raw')) },
    ratio: pairedRatios(peak('lifespan'), peak('raw')),
    params,
    target: null,
    extra:
      `lifespan peak RSS at 10 / 50 / 100 % of the walk: ${curve('lifespan', 'peakMb')} MiB (raw ${curve('raw', 'peakMb')}); ` +
      `heap in use after a GC: ${curve('lifespan', 'heapMb')} MiB (raw ${curve('raw', 'heapMb')}); ` +
      `before the walk ${summarize(walks.lifespan.map((w) => w.baseMb)).median.toFixed(0)} MiB; ` +
      `walk ${(summarize(walks.lifespan.map((w) => w.ms)).median / 1000).toFixed(1)} s (raw ${(summarize(walks.raw.map((w) => w.ms)).median / 1000).toFixed(1)} s)`,
  };
  return [flatness, againstRaw];
}

/** findPage() × pages against the raw paging of the same rows, both from the first row on. */
async function pageRow(ctx, store, repo, rawPage, pages, pageSize, reference) {
  const lifespanSide = async () => {
    let cursor;
    for (let p = 0; p < pages; p++) {
      const page = await repo.findPage({}, cursor === undefined ? { limit: pageSize } : { limit: pageSize, cursor });
      if (page.items.length === 0 || !page.cursor) throw new Error('lifespan: the table ran out of pages');
      cursor = page.cursor;
    }
  };
  const rawSide = async () => {
    let after;
    for (let p = 0; p < pages; p++) {
      const page = await rawPage(after, pageSize);
      if (page.done) throw new Error('raw: the table ran out of pages');
      after = page.next;
    }
  };
  const measured = await interleave({
    sides: { lifespan: lifespanSide, raw: rawSide },
    ...timing(ctx.options),
    log: ctx.log,
  });
  return compareRow(measured, 'lifespan', 'raw', {
    case: 10,
    store,
    measure: `findPage() × ${pages} pages of ${pageSize} (a walk from the start)`,
    subjectLabel: 'lifespan findPage()',
    referenceLabel: reference,
    params: { pages, pageSize },
    target: atMost(PAGE_TARGET),
  });
}

async function relational(ctx, store) {
  const { options, info } = ctx;
  if (store === 'sqlite' && info.mode === 'memory') {
    ctx.note('the iterate case walks a SQLite file from a second process; skipped in memory mode');
    return [];
  }
  const rows = store === 'sqlite' ? options.iterateSqlite : options.iteratePostgres;
  const knex = store === 'sqlite' ? conn.sqliteKnex(info, 'iterate') : conn.pgKnex(info);
  const db = await openBenchStore(knex);
  await knex.raw(FILL[store](rows));
  if (store === 'postgres') await knex.raw('ANALYZE "bench_sessions"');
  ctx.log(`filled ${rows} rows`);
  const result = [];
  try {
    const rawPage = await rawPager(store, knex, info);
    result.push(...(await rssRow(ctx, store, { store, rows, pageSize: options.pageSize, info }, rawPage.label)));
    const repo = db.repository(BenchSession);
    const pages = Math.min(options.pagesPerWalk, Math.floor(rows / options.pageSize) - 1);
    result.push(await pageRow(ctx, store, repo, rawPage.page, pages, options.pageSize, rawPage.label));
    await rawPage.close();
  } finally {
    await db.close();
    await conn.dropTables(knex, conn.BENCH_TABLES);
    await knex.destroy();
  }
  return result;
}

async function rawPager(store, knex, info) {
  if (store === 'sqlite') {
    const handle = await conn.sqliteHandle(knex);
    const statement = handle.prepare(PAGE_SQL.sqlite);
    return {
      label: `${driverLabel('better-sqlite3')}: keyset statement`,
      page: async (after, n) => {
        const items = statement.all(after ?? '', n).map(entityOf);
        return { items, next: items[items.length - 1]?.id, done: items.length === 0 };
      },
      close: async () => undefined,
    };
  }
  const client = await conn.rawPg(info);
  return {
    label: `${driverLabel('pg')}: keyset statement`,
    page: async (after, n) => {
      const result = await client.query({ name: 'bench_page', text: PAGE_SQL.postgres, values: [after ?? '', n] });
      const items = result.rows.map(entityOf);
      return { items, next: items[items.length - 1]?.id, done: items.length === 0 };
    },
    close: () => client.end(),
  };
}

async function redis(ctx) {
  const { options } = ctx;
  const rows = options.iterateRedis;
  const prefix = `lifespan_bench_iter_${process.pid}:`;
  const { client, db } = await openRedis(prefix);
  const result = [];
  try {
    const repo = db.repository(BenchSession);
    for (let start = 0; start < rows; start += 1000) {
      const batch = [];
      for (let i = start; i < Math.min(rows, start + 1000); i++) {
        const s = Object.assign(new BenchSession(), {
          id: `s${i}`,
          owner: `o${i % 1000}`,
          payload: `${PAYLOAD}${i}`,
          hits: i,
        });
        batch.push(repo.upsert(s, { ttl: 3600 }));
      }
      await Promise.all(batch);
    }
    ctx.log(`filled ${rows} keys`);
    const rawPage = redisRawPager(client, prefix);
    const job = { store: 'redis', rows, pageSize: options.pageSize, info: {}, prefix };
    result.push(...(await rssRow(ctx, 'redis', job, rawPage.label)));
    const pages = Math.min(options.pagesPerWalk, Math.floor(rows / options.pageSize) - 1);
    result.push(await pageRow(ctx, 'redis', repo, rawPage.page, pages, options.pageSize, rawPage.label));
  } finally {
    await db.close();
    await deleteKeys(client, prefix);
    client.destroy();
  }
  return result;
}

/** SCAN + MGET + JSON.parse into the entity: Redis's own paging of the same keys, by hand. */
function redisRawPager(client, prefix) {
  const pattern = `${prefix}bench_sessions:*`;
  return {
    label: `${driverLabel('redis')}: SCAN + MGET`,
    page: async (after, n) => {
      const scan = ['SCAN', after ?? '0', 'MATCH', pattern, 'COUNT', String(n), 'TYPE', 'string'];
      const [next, keys] = await client.sendCommand(scan);
      const texts = keys.length === 0 ? [] : await client.sendCommand(['MGET', ...keys]);
      const items = texts.filter((t) => t !== null).map((t) => entityOf(JSON.parse(t)));
      return { items, next, done: next === '0' && after !== undefined && items.length === 0 };
    },
    close: async () => undefined,
  };
}

if (require.main === module) {
  process.once('message', (job) => {
    walkChild(job)
      .catch((error) => ({ error: error && error.stack ? error.stack : String(error) }))
      .then((answer) => process.send(answer, () => process.exit(0)));
  });
}

module.exports = {
  title: 'pages and streams (iterate memory, findPage against the raw paging)',
  run: { sqlite: (ctx) => relational(ctx, 'sqlite'), postgres: (ctx) => relational(ctx, 'postgres'), none: redis },
  // Shared with the scale case (bench/cases/scale.js).
  FILL,
  rawPager,
};
