'use strict';
/**
 * `node --expose-gc bench/tools/mariadb-find.js [--rounds=25] [--finds=1000] [--sides=a,b] [--explain]
 * [--baseline=<root of another built checkout>]`:
 * case 2's MariaDB find({ owner }) (bench/cases/reads.js) measured in detail, to tell lifespan's
 * own cost from the driver's and the server's. Runs on the built dist/ (`npm run build` first),
 * in a database of its own (lifespan_helper_<pid>, dropped at the end) on MYSQL_URL
 * (default mysql://root@127.0.0.1:3306/).
 *
 * Sides, interleaved per round in alternating order (as bench/lib/measure.js does):
 * - lifespan / lifespanPlain: repository.find on the TTL table / the table without TTL;
 * - raw / rawPlain: mysql2 `execute` of bench/lib/reference-sql.js's statements;
 * - rawLsSql / rawLsSqlPlain: mysql2 `execute` of the SQL text lifespan sends (captured from its
 *   connection), on the raw connection: the server's and the driver's part of lifespan's cost
 *   without lifespan's code.
 * - rawLsSqlDecoded: rawLsSql's rows decoded as lifespan decodes them (its dist/ internals:
 *   drivers/mysql-rows.js rowsInSelectOrder, then the table's instanceOfRow), without its
 *   repository, executor or connection lease: splits lifespan's cost into decoding and the rest.
 * - baseline / baselinePlain (with --baseline): the same finds through another checkout's dist/
 *   (e.g. the commit before a change, built), in the same process on its own one-connection pool:
 *   before and after measured interleaved.
 * Per side: wall time, client CPU (process.cpuUsage), server CPU (utime+stime of the mariadbd
 * process in /proc, 10 ms ticks; the machine's other clients count too) and the session's
 * Handler_* / Com_* / Select_* / Sort_* / Created_tmp_* deltas, read with SHOW SESSION STATUS on the
 * side's own connection outside the timed part (the SHOW's own counts subtracted). lifespan's
 * knex pool has one connection here, so its session is the one lifespan's statements ran on.
 * --explain prints EXPLAIN of each distinct statement.
 */
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { setImmediate } = require('node:timers');
const { URL } = require('node:url');
const knexLib = require('knex');
const { BenchSession, PlainSession } = require('../lib/entities');
const { openBenchStore } = require('../lib/bench-store');
const conn = require('../lib/connections');
const SQL = require('../lib/reference-sql');
const { fillMariadb } = require('../cases/reads');
const { summarize, pairedRatios } = require('../lib/stats');

const OWNERS = 1000;
const DIST = path.resolve(__dirname, '..', '..', 'dist');

function parseArgs(argv) {
  const args = { rounds: 25, finds: 1000, keys: 20000, sides: null, explain: false, baseline: null };
  for (const a of argv) {
    const m = /^--(rounds|finds|keys|sides|baseline)=(.*)$/.exec(a);
    if (m && m[1] === 'baseline') args.baseline = path.resolve(m[2]);
    else if (m) args[m[1]] = m[1] === 'sides' ? m[2].split(',') : Number(m[2]);
    else if (a === '--explain') args.explain = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

function cb(target, method, ...args) {
  return new Promise((resolve, reject) =>
    target[method](...args, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/** utime + stime of mariadbd in ms (the oldest process of that name), or NaN when unreadable. */
function serverPid() {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'mariadbd') return Number(d);
    } catch {
      // a process that ended meanwhile
    }
  }
  return null;
}
function serverCpuMs(pid) {
  if (!pid) return NaN;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const COUNTERS = /^(Handler_|Com_(select|stmt_)|Select_|Sort_|Created_tmp_|Bytes_)/;

async function sessionStatus(connection) {
  const rows = await cb(connection, 'query', 'SHOW SESSION STATUS');
  const out = {};
  for (const r of rows) if (COUNTERS.test(r.Variable_name)) out[r.Variable_name] = Number(r.Value);
  return out;
}

function diff(after, before, overhead = {}) {
  const out = {};
  for (const k of Object.keys(after)) {
    const d = after[k] - (before[k] ?? 0) - (overhead[k] ?? 0);
    if (d !== 0) out[k] = d;
  }
  return out;
}

/** The SQL text and parameters of the next `execute` on the knex connection (lifespan's). */
async function captureStatement(knex, run) {
  const connection = await knex.client.acquireConnection();
  await knex.client.releaseConnection(connection);
  const original = connection.execute;
  let seen = null;
  connection.execute = function (...args) {
    if (!seen) seen = typeof args[0] === 'string' ? { sql: args[0], values: args[1] } : args[0];
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    connection.execute = original;
  }
  return seen;
}

/** The bench store of another checkout (its bench/lib and dist/) on the same tables, without recreating them. */
async function openBaseline(root, info) {
  const other = (file) => require(path.join(root, 'bench', 'lib', file));
  const knex = knexLib({ client: 'mysql2', connection: info.url, pool: { min: 1, max: 1 } });
  const db = await other('bench-store.js').openBenchStore(knex, { fresh: false });
  const { BenchSession: Ttl, PlainSession: Plain } = other('entities.js');
  return {
    ttlRepo: db.repository(Ttl),
    plainRepo: db.repository(Plain),
    session: async () => {
      const c = await knex.client.acquireConnection();
      await knex.client.releaseConnection(c);
      return c;
    },
    close: async () => {
      await db.close();
      await knex.destroy();
    },
  };
}

function must(n, what) {
  if (!n) throw new Error(`${what}: no rows`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const base = new URL(process.env.MYSQL_URL || 'mysql://root@127.0.0.1:3306/');
  const database = `lifespan_helper_${process.pid}`;
  const admin = await conn.rawMysql({ url: base.href });
  await admin.query(`CREATE DATABASE \`${database}\``);
  const url = new URL(base.href);
  url.pathname = `/${database}`;
  const info = { url: url.href };
  // One pooled connection: lifespan's statements and the SHOW SESSION STATUS about them share it.
  const knex = knexLib({ client: 'mysql2', connection: info.url, pool: { min: 1, max: 1 } });
  const pid = serverPid();
  try {
    const db = await openBenchStore(knex);
    const my = await conn.rawMysql(info);
    await fillMariadb(my, args.keys);
    const owners = Array.from({ length: args.finds }, (_, j) => `o${(j * 7) % OWNERS}`);
    const ttlRepo = db.repository(BenchSession);
    const plainRepo = db.repository(PlainSession);
    const lsFind = await captureStatement(knex, () => ttlRepo.find({ owner: 'o1' }));
    const lsFindPlain = await captureStatement(knex, () => plainRepo.find({ owner: 'o1' }));
    console.log('lifespan find SQL:       ', JSON.stringify(lsFind));
    console.log('lifespan find plain SQL: ', JSON.stringify(lsFindPlain));
    console.log('reference find SQL:      ', SQL.mariadb.find);
    const knexConn = async () => {
      const c = await knex.client.acquireConnection();
      await knex.client.releaseConnection(c);
      return c;
    };
    if (args.explain) {
      for (const sql of [SQL.mariadb.find, lsFind.sql, SQL.mariadb.findPlain, lsFindPlain.sql]) {
        console.log(`EXPLAIN ${sql}`);
        console.table(await my.query(`EXPLAIN FORMAT=JSON ${sql.replace('?', "'o7'")}`));
      }
    }
    const lsSide = (repo) => async () => {
      for (const o of owners) must((await repo.find({ owner: o })).length, o);
    };
    const rawSide = (sql) => async () => {
      for (const o of owners) must((await my.execute(sql, [o])).length, o);
    };
    const { rowsInSelectOrder } = require(path.join(DIST, 'providers', 'relational', 'drivers', 'mysql-rows.js'));
    const table = ttlRepo.t;
    const decodedSide = (sql) => async () => {
      for (const o of owners) {
        const rows = await new Promise((resolve, reject) =>
          my.connection.execute(sql, [o], (error, result, fields) =>
            error ? reject(error) : resolve(rowsInSelectOrder(result, fields, 'BenchSession')),
          ),
        );
        must(rows.map((row) => table.instanceOfRow(row)).length, o);
      }
    };
    const baseline = args.baseline ? await openBaseline(args.baseline, info) : null;
    const all = {
      lifespan: { run: lsSide(ttlRepo), session: knexConn },
      lifespanPlain: { run: lsSide(plainRepo), session: knexConn },
      raw: { run: rawSide(SQL.mariadb.find), session: async () => my.connection },
      rawPlain: { run: rawSide(SQL.mariadb.findPlain), session: async () => my.connection },
      rawLsSql: { run: rawSide(lsFind.sql), session: async () => my.connection },
      rawLsSqlPlain: { run: rawSide(lsFindPlain.sql), session: async () => my.connection },
      rawLsSqlDecoded: { run: decodedSide(lsFind.sql), session: async () => my.connection },
    };
    if (baseline) {
      all.baseline = { run: lsSide(baseline.ttlRepo), session: baseline.session };
      all.baselinePlain = { run: lsSide(baseline.plainRepo), session: baseline.session };
    }
    const names = Object.keys(all).filter((n) => !args.sides || args.sides.includes(n));
    // The SHOW's own counts: two reads in a row on one connection.
    const overhead = async (c) => diff(await sessionStatus(c), await sessionStatus(c));
    const showOverhead = await overhead(my.connection);
    const result = Object.fromEntries(
      names.map((n) => [n, { wall: [], cpu: [], user: [], sys: [], server: [], status: [] }]),
    );
    for (const n of names) await all[n].run(); // warm-up
    for (let round = 0; round < args.rounds; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const n of order) {
        const side = all[n];
        const session = await side.session();
        const before = await sessionStatus(session);
        if (globalThis.gc) globalThis.gc();
        const s0 = serverCpuMs(pid);
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await side.run();
        const wall = performance.now() - t0;
        const c = process.cpuUsage(c0);
        const s1 = serverCpuMs(pid);
        await new Promise((r) => setImmediate(r)); // lifespan's lease goes back to the pool
        const after = await sessionStatus(await side.session());
        const r = result[n];
        r.wall.push(wall);
        r.cpu.push((c.user + c.system) / 1000);
        r.user.push(c.user / 1000);
        r.sys.push(c.system / 1000);
        r.server.push(s1 - s0);
        r.status.push(diff(after, before, showOverhead));
      }
      process.stderr.write(`round ${round + 1}/${args.rounds}\r`);
    }
    report(result, names);
    my.end();
    await db.close();
    if (baseline) await baseline.close();
  } finally {
    await knex.destroy();
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    admin.end();
  }
}

function med(xs) {
  return summarize(xs).median;
}

function report(result, names) {
  const f = (x) => x.toFixed(1).padStart(7);
  console.log('\nside            wall ms (min–max)          client CPU ms (user + sys)   server CPU ms');
  for (const n of names) {
    const r = result[n];
    const w = summarize(r.wall);
    console.log(
      `${n.padEnd(14)} ${f(w.median)} (${f(w.min)}–${f(w.max)})   ${f(med(r.cpu))} (${f(med(r.user))} +${f(med(r.sys))})   ${f(med(r.server))}`,
    );
  }
  const pairs = [
    ['lifespan', 'raw'],
    ['lifespan', 'lifespanPlain'],
    ['raw', 'rawPlain'],
    ['rawLsSql', 'raw'],
    ['rawLsSql', 'rawLsSqlPlain'],
    ['lifespan', 'rawLsSql'],
    ['rawLsSqlDecoded', 'rawLsSql'],
    ['lifespan', 'rawLsSqlDecoded'],
    ['lifespanPlain', 'rawPlain'],
    ['baseline', 'raw'],
    ['lifespan', 'baseline'],
    ['baseline', 'baselinePlain'],
  ];
  console.log('\npaired ratios (median, q1–q3) of wall / client CPU / server CPU');
  for (const [a, b] of pairs) {
    if (!result[a] || !result[b]) continue;
    const q = (k) => {
      const s = pairedRatios(result[a][k], result[b][k]);
      return `${s.median.toFixed(3)} (${s.q1.toFixed(2)}–${s.q3.toFixed(2)})`;
    };
    console.log(`${`${a} / ${b}`.padEnd(30)} wall ${q('wall')}  cpu ${q('cpu')}  server ${q('server')}`);
  }
  console.log('\nsession status deltas per run (median over rounds)');
  for (const n of names) {
    const keys = new Set(result[n].status.flatMap((s) => Object.keys(s)));
    const parts = [...keys].sort().map((k) => `${k}=${med(result[n].status.map((s) => s[k] ?? 0))}`);
    console.log(`${n}: ${parts.join(' ')}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
