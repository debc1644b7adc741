'use strict';
/**
 * Case 6: peers on SQLite. Case 1's inserts (N rows, units of U, a TTL per row) and case 2's key
 * reads (×K, expiry-filtered) through TypeORM and MikroORM (bench/peers), lifespan and the raw
 * better-sqlite3 reference, side by side. Each ORM has its own database file with the same
 * pragmas; lifespan and the reference share one. The peers keep expiresAt as a Date column
 * filtered with the client's clock, which is how their users would write it.
 */
const path = require('node:path');
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession, newSession, sessionValues, ttlOf } = require('../lib/entities');
const conn = require('../lib/connections');
const SQL = require('../lib/reference-sql');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
const { driverLabel } = require('../lib/versions');

const PEERS = path.resolve(__dirname, '..', 'peers');

async function sqlite(ctx) {
  const { options, info } = ctx;
  const { writeRows: rows, unit, readKeys } = options;
  const pragmas = (db) => conn.sqlitePragmas(db, info.mode);
  const { openTypeorm } = require(path.join(PEERS, 'typeorm-side.js'));
  const { openMikroorm } = require(path.join(PEERS, 'mikroorm-side.js'));
  const typeorm = await openTypeorm(conn.sqliteFile(info, 'peers-typeorm'), pragmas);
  const mikro = await openMikroorm(conn.sqliteFile(info, 'peers-mikroorm'), pragmas);

  const knex = conn.sqliteKnex(info, 'peers');
  const { RelationalStore } = lifespan.relational();
  const db = await lifespan.connect(benchModel(), new RelationalStore({ knex, ttl: 'emulate' }));
  await db.ensureCollections();
  const handle = await conn.sqliteHandle(knex);
  const insert = handle.prepare(SQL.sqlite.insert);
  const get = handle.prepare(SQL.sqlite.get);
  const unitTx = handle.transaction((start, end) => {
    for (let i = start; i < end; i++) {
      const v = sessionValues(i);
      if (insert.run(v.id, v.owner, v.payload, v.hits, Date.now(), ttlOf(i)).changes !== 1)
        throw new Error('duplicate');
    }
  });
  const peerUnits = (peer) => async () => {
    for (let start = 0; start < rows; start += unit) {
      const batch = [];
      for (let i = start; i < Math.min(rows, start + unit); i++) batch.push({ ...sessionValues(i), ttl: ttlOf(i) });
      await peer.insertUnit(batch);
    }
  };
  const common = { ...timing(options), log: ctx.log };
  const inserts = await interleave({
    ...common,
    prepare: async (side) => {
      if (side === 'typeorm') await typeorm.clear();
      else if (side === 'mikroorm') await mikro.clear();
      else handle.exec('DELETE FROM "bench_sessions"');
    },
    sides: {
      raw: async () => {
        for (let start = 0; start < rows; start += unit) unitTx.immediate(start, Math.min(rows, start + unit));
      },
      lifespan: async () => {
        for (let start = 0; start < rows; start += unit) {
          const uow = db.unitOfWork();
          for (let i = start; i < Math.min(rows, start + unit); i++)
            uow.insert(newSession(BenchSession, i), { ttl: ttlOf(i) });
          await uow.commit();
        }
      },
      typeorm: peerUnits(typeorm),
      mikroorm: peerUnits(mikro),
    },
  });
  // Every side's last insert run left its `rows` rows in place: the reads read those.
  const keys = Array.from({ length: Math.min(readKeys, rows) }, (_, i) => sessionValues((i * 7919) % rows).id);
  const must = (found, k) => {
    if (!found) throw new Error(`${k}: not found`);
  };
  const repo = db.repository(BenchSession);
  const reads = await interleave({
    ...common,
    prepare: async (side) => {
      if (side === 'mikroorm') mikro.startReads();
    },
    sides: {
      raw: async () => keys.forEach((k) => must(get.get(k), k)),
      lifespan: async () => {
        for (const k of keys) must(await repo.get(k), k);
      },
      typeorm: async () => {
        for (const k of keys) must(await typeorm.get(k), k);
      },
      mikroorm: async () => {
        for (const k of keys) must(await mikro.get(k), k);
      },
    },
  });
  await typeorm.close();
  await mikro.close();
  await db.close();
  await knex.destroy();

  const raw = driverLabel('better-sqlite3');
  const labels = { typeorm: typeorm.label, mikroorm: mikro.label, raw };
  const out = [];
  for (const [measured, measure, params] of [
    [inserts, `insert ${rows} rows, units of ${unit}, TTL per row`, { rows, unit }],
    [reads, `get by key ×${keys.length}, expiry-filtered`, { keys: keys.length }],
  ]) {
    const row = (subject, reference, extra = {}) =>
      compareRow(measured, subject, reference, {
        case: 6,
        store: 'sqlite',
        measure,
        subjectLabel: labels[subject] ?? subject,
        referenceLabel: labels[reference] ?? reference,
        params: { ...params, runs: options.runs, warmup: options.warmup },
        ...extra,
      });
    out.push(
      row('typeorm', 'raw'),
      row('mikroorm', 'raw'),
      row('lifespan', 'typeorm', { target: atMost(1, '< 1× (faster)') }),
      row('lifespan', 'mikroorm', { target: atMost(1, '< 1× (faster)') }),
    );
  }
  return out;
}

module.exports = { title: 'peers on SQLite', run: { sqlite } };
