'use strict';
/**
 * Case 5: plan() against a live store that is already in sync, for models of (default) 20 and 200
 * generated entities (tables; Cassandra tables in one keyspace). Reported: plan()'s time and the
 * requests it sends (and how many of them wait on one another). Target: Cassandra reads the
 * keyspace's schema in one round trip; elsewhere the count does not grow with the number of tables.
 */
const lifespan = require('../lib/lifespan');
const { generatedEntities } = require('../lib/entities');
const conn = require('../lib/connections');
const { timing, interleave } = require('../lib/measure');
const { summarize, pairedRatios } = require('../lib/stats');
const { countRequests } = require('../lib/requests');

async function openStore(store, ctx) {
  const { info } = ctx;
  if (store === 'cassandra') {
    const client = await conn.cassandraClient(info);
    await conn.createKeyspace(client, info.keyspace);
    const { CassandraStore } = lifespan.cassandra();
    return { store: new CassandraStore({ client, keyspace: info.keyspace }), close: () => client.shutdown() };
  }
  const knex =
    store === 'sqlite'
      ? conn.sqliteKnex(info, 'plan')
      : store === 'postgres'
        ? conn.pgKnex(info)
        : conn.mysqlKnex(info);
  const { RelationalStore } = lifespan.relational();
  return { store: new RelationalStore({ knex, ttl: 'emulate', logger: { warn() {} } }), close: () => knex.destroy() };
}

async function planCase(store, ctx) {
  const { options } = ctx;
  const sizes = [...options.planTables].sort((a, b) => a - b);
  const target = await openStore(store, ctx);
  const contexts = new Map();
  for (const n of sizes) {
    const model = generatedEntities(n, `P${n}x`).register(new lifespan.ModelBuilder()).build();
    const db = await lifespan.connect(model, target.store);
    const started = Date.now();
    await db.ensureCollections();
    ctx.log(`${n} tables created in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    contexts.set(n, db);
  }
  const sides = {};
  for (const n of sizes) {
    sides[`n${n}`] = async () => {
      const plan = await contexts.get(n).plan();
      const changes = plan.steps.filter((s) => s.class !== 'conflict' || s.payload?.blocking);
      if (changes.length > 0)
        throw new Error(`plan() of an up-to-date store has ${changes.length} steps: ${changes[0].summary}`);
    };
  }
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    sides,
  });
  const counts = new Map();
  for (const n of sizes) {
    const counting = countRequests(store);
    await contexts.get(n).plan();
    counts.set(n, counting.stop());
  }
  for (const db of contexts.values()) await db.close();
  await target.close();
  const large = sizes[sizes.length - 1];
  const small = sizes[0];
  if (!measured[`n${large}`] || !measured[`n${small}`]) return [];
  const cl = counts.get(large);
  const cs = counts.get(small);
  const requestsText = (c, n) => `${c.requests} requests (${c.waves} in sequence) for ${n} tables`;
  // A round trip is a wave: requests sent together (Cassandra's tables and columns queries) wait once.
  const met = store === 'cassandra' ? cl.waves <= 1 : cl.requests === cs.requests;
  return [
    {
      case: 5,
      store,
      measure: `plan() of an up-to-date store, ${large} vs ${small} tables`,
      subject: { name: `${large} tables`, stats: summarize(measured[`n${large}`].times) },
      reference: { name: `${small} tables`, stats: summarize(measured[`n${small}`].times) },
      ratio: pairedRatios(measured[`n${large}`].times, measured[`n${small}`].times),
      params: { tables: sizes, runs: options.runs, warmup: options.warmup },
      target: {
        kind: 'bool',
        text: store === 'cassandra' ? '1 round trip per keyspace' : 'requests independent of tables',
        met,
      },
      extra: `${requestsText(cl, large)}; ${requestsText(cs, small)}`,
    },
  ];
}

module.exports = {
  title: 'plan() against a live store',
  run: {
    sqlite: (ctx) => planCase('sqlite', ctx),
    postgres: (ctx) => planCase('postgres', ctx),
    mariadb: (ctx) => planCase('mariadb', ctx),
    cassandra: (ctx) => planCase('cassandra', ctx),
  },
};
