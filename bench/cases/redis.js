'use strict';
/**
 * Case 9: Redis 7 on 127.0.0.1:6379 (REDIS_URL): insert with a per-write TTL and get by key
 * through lifespan, against the same commands sent with node-redis by hand (SET key json NX EX n,
 * GET key + JSON.parse into the entity), the hand side encoding the same JSON. Each run writes
 * under its own key prefix and deletes it afterwards.
 */
const { redisInsertGet } = require('../lib/redis-insert-get');
const { driverLabel } = require('../lib/versions');
const { redisClient, deleteKeys } = require('../lib/redis-client');

async function none(ctx) {
  const client = await redisClient();
  const prefix = `lifespan_bench_${process.pid}:`;
  try {
    const { RedisStore } = require('../../dist/providers/redis');
    return await redisInsertGet({
      ctx,
      store: new RedisStore({ client, prefix }),
      prefix,
      send: (_key, args) => client.sendCommand(args),
      row: (n) => ({
        caseNo: 9,
        store: 'redis',
        label: `${driverLabel('redis')} by hand`,
        insertMeasure: `insert ×${n}, per-write TTL (SET … NX EX)`,
      }),
    });
  } finally {
    await deleteKeys(client, prefix);
    client.destroy();
  }
}

module.exports = { title: 'Redis 7 (insert/get against node-redis by hand)', run: { none } };
