'use strict';
/**
 * The Redis insert/get comparison of cases 9 and 10: lifespan's repository against the same
 * commands sent by hand (SET key json NX EX 600, GET key + JSON.parse into the entity), the hand
 * side encoding the same JSON. `send(key, args)` sends one command through the client under test.
 */
const lifespan = require('./lifespan');
const { benchModel, BenchSession } = require('./entities');
const { insertThenGet, insertGetRows } = require('./insert-get');

const TARGET = 1.2;

async function redisInsertGet({ ctx, store, prefix, send, row }) {
  const db = await lifespan.connect(benchModel(), store);
  await db.ensureCollections();
  const n = ctx.options.redisOps;
  const rawKey = (id) => `${prefix}raw_sessions:${id}`;
  const results = await insertThenGet({
    ctx,
    n,
    repo: db.repository(BenchSession),
    extra: () => ({ createdAt: new Date() }),
    rawInsert: async (v) => {
      const key = rawKey(v.id);
      const json = JSON.stringify({ ...v, createdAt: v.createdAt.toISOString() });
      if ((await send(key, ['SET', key, json, 'NX', 'EX', '600'])) === null) throw new Error('raw: duplicate');
    },
    rawGet: async (id) => {
      const key = rawKey(id);
      const text = await send(key, ['GET', key]);
      if (text === null) return false;
      const v = JSON.parse(text);
      return Object.assign(new BenchSession(), v, { createdAt: new Date(v.createdAt) });
    },
  });
  await db.close();
  return insertGetRows(results, {
    ctx,
    n,
    target: TARGET,
    getMeasure: `get() by key ×${n} (GET)`,
    ...row(n),
  });
}

module.exports = { redisInsertGet };
