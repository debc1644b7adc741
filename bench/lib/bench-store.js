'use strict';
/** The lifespan side of the relational cases: the bench model on a clean set of tables, TTL emulated. */
const lifespan = require('./lifespan');
const { benchModel } = require('./entities');
const conn = require('./connections');

/** Connects the bench model with TTL emulation and creates its tables; `fresh` drops them first. */
async function openBenchStore(knex, { fresh = true } = {}) {
  if (fresh) await conn.dropTables(knex, conn.BENCH_TABLES);
  const { RelationalStore } = lifespan.relational();
  const db = await lifespan.connect(benchModel(), new RelationalStore({ knex, ttl: 'emulate' }));
  await db.ensureCollections();
  return db;
}

module.exports = { openBenchStore };
