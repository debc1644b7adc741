'use strict';
/**
 * Case 9: Redis 7 on 127.0.0.1:6379 (REDIS_URL): insert with a per-write TTL and get by key
 * through lifespan, against the same commands sent with node-redis by hand (SET key json NX EX n,
 * GET key + JSON.parse into the entity), the hand side encoding the same JSON. Each run writes
 * under its own key prefix and deletes it afterwards.
 */
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession } = require('../lib/entities');
const { insertThenGet, insertGetRows } = require('../lib/insert-get');
const { driverLabel } = require('../lib/versions');
const { redisClient, deleteKeys } = require('../lib/redis-client');

const TARGET = 1.2;

async function none(ctx) {
  const { options } = ctx;
  const client = await redisClient();
  const prefix = `lifespan_bench_${process.pid}:`;
  try {
    const { RedisStore } = require('../../dist/providers/redis');
    const db = await lifespan.connect(benchModel(), new RedisStore({ client, prefix }));
    await db.ensureCollections();
    const n = options.redisOps;
    const rawKey = (id) => `${prefix}raw_sessions:${id}`;
    const results = await insertThenGet({
      ctx,
      n,
      repo: db.repository(BenchSession),
      extra: () => ({ createdAt: new Date() }),
      rawInsert: async (v) => {
        const json = JSON.stringify({ ...v, createdAt: v.createdAt.toISOString() });
        if ((await client.sendCommand(['SET', rawKey(v.id), json, 'NX', 'EX', '600'])) === null) {
          throw new Error('raw: duplicate');
        }
      },
      rawGet: async (id) => {
        const text = await client.sendCommand(['GET', rawKey(id)]);
        if (text === null) return false;
        const v = JSON.parse(text);
        return Object.assign(new BenchSession(), v, { createdAt: new Date(v.createdAt) });
      },
    });
    await db.close();
    return insertGetRows(results, {
      ctx,
      n,
      caseNo: 9,
      store: 'redis',
      label: `${driverLabel('redis')} by hand`,
      target: TARGET,
      insertMeasure: `insert ×${n}, per-write TTL (SET … NX EX)`,
      getMeasure: `get() by key ×${n} (GET)`,
    });
  } finally {
    await deleteKeys(client, prefix);
    client.destroy();
  }
}

module.exports = { title: 'Redis 7 (insert/get against node-redis by hand)', run: { none } };
