'use strict';
/**
 * Case 1: the write path with a per-write TTL. N new rows in units of work of U rows, each insert
 * with its own TTL; lifespan (unitOfWork().insert(e, { ttl }).commit()) against the same statements
 * written by hand with the raw driver (prepared, one transaction per unit) and with knex's query
 * builder. The table is emptied before every run (untimed).
 */
const { connect } = require('../lib/lifespan');
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession, newSession, sessionValues, ttlOf } = require('../lib/entities');
const conn = require('../lib/connections');
const { openBenchStore } = require('../lib/bench-store');
const SQL = require('../lib/reference-sql');
const { timing, interleave, interleaveApart, compareRow, atMost } = require('../lib/measure');
const { driverLabel } = require('../lib/versions');

// Issue 18: every key path within 1.1× of the raw driver.
const TARGET = { sqlite: 1.1, postgres: 1.1, mariadb: 1.1, cassandra: 1.1 };

/** lifespan's side: units of work of `unit` inserts, each with its own TTL; rows base … base + rows - 1. */
async function lifespanInserts(db, rows, unit, base = 0) {
  for (let start = base; start < base + rows; start += unit) {
    const uow = db.unitOfWork();
    const end = Math.min(base + rows, start + unit);
    for (let i = start; i < end; i++) uow.insert(newSession(BenchSession, i), { ttl: ttlOf(i) });
    await uow.commit();
  }
}

/** knex's side, as a knex user writes it: the query builder, one transaction per unit. */
async function knexInserts(knex, dialect, rows, unit) {
  const now = knex.raw(SQL[dialect].now);
  const expiry = (seconds) =>
    dialect === 'sqlite'
      ? knex.raw(`${SQL.sqlite.now} + ? * 1000`, [seconds])
      : dialect === 'postgres'
        ? knex.raw("now() + ? * interval '1 second'", [seconds])
        : knex.raw('UTC_TIMESTAMP(3) + INTERVAL ? SECOND', [seconds]);
  for (let start = 0; start < rows; start += unit) {
    const end = Math.min(rows, start + unit);
    await knex.transaction(async (trx) => {
      for (let i = start; i < end; i++) {
        const v = sessionValues(i);
        const createdAt = dialect === 'sqlite' ? Date.now() : new Date();
        const row = { ...v, createdAt, expires_at: expiry(ttlOf(i)) };
        if (dialect === 'mariadb') {
          await trx('bench_sessions').where('id', v.id).andWhere('expires_at', '<=', now).del();
          await trx('bench_sessions').insert(row);
          continue;
        }
        const written = await trx('bench_sessions')
          .insert(row)
          .onConflict('id')
          .merge(['owner', 'payload', 'hits', 'createdAt', 'expires_at'])
          .where('bench_sessions.expires_at', '<=', now)
          .returning('id');
        if (written.length !== 1) throw new Error(`duplicate key ${v.id}`);
      }
    });
  }
}

function row(store, measured, subject, reference, options, extra = {}) {
  const unit = store === 'cassandra' ? options.cassandraUnit : options.unit;
  return compareRow(measured, subject, reference, {
    case: 1,
    store,
    measure: `insert ${options.writeRows} rows, units of ${unit}, per-write TTL`,
    params: { rows: options.writeRows, unit, runs: options.runs, warmup: options.warmup },
    ...extra,
  });
}

/** The raw side's unit on SQLite: rows start … end - 1 by a prepared statement, in one transaction. */
function rawSqliteUnit(handle) {
  const insert = handle.prepare(SQL.sqlite.insert);
  return handle.transaction((start, end) => {
    for (let i = start; i < end; i++) {
      const v = sessionValues(i);
      const { changes } = insert.run(v.id, v.owner, v.payload, v.hits, Date.now(), ttlOf(i));
      if (changes !== 1) throw new Error(`duplicate key ${v.id}`);
    }
  });
}

async function sqlite(ctx) {
  const { options, info } = ctx;
  const knex = conn.sqliteKnex(info, 'write');
  const db = await openBenchStore(knex, { fresh: false });
  const handle = await conn.sqliteHandle(knex);
  const unitTx = rawSqliteUnit(handle);
  const { writeRows: rows, unit } = options;
  const measured = await interleaveApart({
    apart: ['knex'],
    reference: 'raw',
    ...timing(options),
    log: ctx.log,
    prepare: async () => handle.exec('DELETE FROM "bench_sessions"'),
    sides: {
      lifespan: () => lifespanInserts(db, rows, unit),
      raw: async () => {
        for (let start = 0; start < rows; start += unit) unitTx.immediate(start, Math.min(rows, start + unit));
      },
      knex: () => knexInserts(knex, 'sqlite', rows, unit),
    },
  });
  await db.close();
  await knex.destroy();
  const raw = driverLabel('better-sqlite3');
  return [
    row('sqlite', measured, 'lifespan', 'raw', options, { referenceLabel: raw, target: atMost(TARGET.sqlite) }),
    row('sqlite', measured, 'knex', 'raw@knex', options, { subjectLabel: driverLabel('knex'), referenceLabel: raw }),
  ];
}

async function postgres(ctx) {
  const { options, info } = ctx;
  const knex = conn.pgKnex(info);
  const db = await openBenchStore(knex);
  const client = await conn.rawPg(info);
  const { writeRows: rows, unit } = options;
  const measured = await interleaveApart({
    apart: ['knex'],
    reference: 'raw',
    ...timing(options),
    log: ctx.log,
    prepare: async () => client.query('TRUNCATE "bench_sessions"'),
    sides: {
      lifespan: () => lifespanInserts(db, rows, unit),
      raw: async () => {
        for (let start = 0; start < rows; start += unit) {
          await client.query('BEGIN');
          for (let i = start; i < Math.min(rows, start + unit); i++) {
            const v = sessionValues(i);
            const values = [v.id, v.owner, v.payload, v.hits, new Date(), ttlOf(i)];
            const result = await client.query({ name: 'bench_insert', text: SQL.postgres.insert, values });
            if (result.rowCount !== 1) throw new Error(`duplicate key ${v.id}`);
          }
          await client.query('COMMIT');
        }
      },
      knex: () => knexInserts(knex, 'postgres', rows, unit),
    },
  });
  await client.end();
  await db.close();
  await knex.destroy();
  const raw = driverLabel('pg');
  return [
    row('postgres', measured, 'lifespan', 'raw', options, { referenceLabel: raw, target: atMost(TARGET.postgres) }),
    row('postgres', measured, 'knex', 'raw@knex', options, { subjectLabel: driverLabel('knex'), referenceLabel: raw }),
  ];
}

async function mariadb(ctx) {
  const { options, info } = ctx;
  const knex = conn.mysqlKnex(info);
  const db = await openBenchStore(knex);
  const my = await conn.rawMysql(info);
  const { writeRows: rows, unit } = options;
  const measured = await interleaveApart({
    apart: ['knex'],
    reference: 'raw',
    ...timing(options),
    log: ctx.log,
    prepare: async () => my.query('TRUNCATE `bench_sessions`'),
    sides: {
      lifespan: () => lifespanInserts(db, rows, unit),
      raw: async () => {
        for (let start = 0; start < rows; start += unit) {
          await my.query('START TRANSACTION');
          for (let i = start; i < Math.min(rows, start + unit); i++) {
            const v = sessionValues(i);
            await my.execute(SQL.mariadb.deleteExpired, [v.id]);
            await my.execute(SQL.mariadb.insert, [v.id, v.owner, v.payload, v.hits, new Date(), ttlOf(i)]);
          }
          await my.query('COMMIT');
        }
      },
      knex: () => knexInserts(knex, 'mariadb', rows, unit),
    },
  });
  my.end();
  await db.close();
  await knex.destroy();
  const raw = driverLabel('mysql2');
  return [
    row('mariadb', measured, 'lifespan', 'raw', options, { referenceLabel: raw, target: atMost(TARGET.mariadb) }),
    row('mariadb', measured, 'knex', 'raw@knex', options, { subjectLabel: driverLabel('knex'), referenceLabel: raw }),
  ];
}

async function cassandra(ctx) {
  const { options, info } = ctx;
  const client = await conn.cassandraClient(info);
  await conn.createKeyspace(client, info.keyspace);
  const { CassandraStore } = lifespan.cassandra();
  const db = await connect(benchModel(), new CassandraStore({ client, keyspace: info.keyspace }));
  await db.ensureCollections();
  const cql = SQL.cassandra(info.keyspace);
  const { writeRows: rows, cassandraUnit: unit } = options;
  const prepared = { prepare: true };
  // Every run writes keys of its own instead of emptying the table: TRUNCATE is slow on Cassandra
  // (and snapshots the table on a node with auto_snapshot on).
  let runNo = 0;
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    sides: {
      lifespan: () => lifespanInserts(db, rows, unit, rows * runNo++),
      // lifespan's statements by hand: the keys are checked (a unit spans partitions, where Cassandra
      // refuses a conditional batch), then one logged batch of INSERT … USING TTL ?.
      raw: async () => {
        const base = rows * runNo++;
        for (let start = base; start < base + rows; start += unit) {
          const end = Math.min(base + rows, start + unit);
          const checks = [];
          const inserts = [];
          for (let i = start; i < end; i++) {
            const v = sessionValues(i);
            checks.push(client.execute(cql.exists, [v.id], prepared));
            inserts.push({ query: cql.insert, params: [v.id, v.owner, v.payload, v.hits, new Date(), ttlOf(i)] });
          }
          const found = await Promise.all(checks);
          if (found.some((r) => r.rows.length > 0)) throw new Error('duplicate key');
          await client.batch(inserts, { prepare: true, logged: true });
        }
      },
    },
  });
  await db.close();
  await client.shutdown();
  return [
    row('cassandra', measured, 'lifespan', 'raw', options, {
      referenceLabel: `${driverLabel('cassandra-driver')}, prepared`,
      target: atMost(TARGET.cassandra),
    }),
  ];
}

module.exports = {
  title: 'write path, per-write TTL',
  stores: ['sqlite', 'postgres', 'mariadb', 'cassandra'],
  run: { sqlite, postgres, mariadb, cassandra },
  // bench/tools/sqlite-insert-harness.js runs the same two sides.
  lifespanInserts,
  rawSqliteUnit,
};
