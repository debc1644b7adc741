'use strict';
/**
 * Case 9: Redis 7 on 127.0.0.1:6379 (REDIS_URL): insert with a per-write TTL and get by key
 * through lifespan, against the same commands sent with node-redis by hand (SET key json NX EX n,
 * GET key + JSON.parse into the entity), the hand side encoding the same JSON. Each run writes
 * under its own key prefix and deletes it afterwards.
 *
 * And the scale case (issue 29): count() of a collection of 1,000 records in a database of 100k
 * keys and in one of 1M keys (logical databases 14 and 15 of the same server, so the two sizes
 * run interleaved), as the ratio of the larger to the smaller: flat is the target. It also
 * reports the collection index's MEMORY USAGE per 1,000 records.
 */
const { redisInsertGet } = require('../lib/redis-insert-get');
const { driverLabel } = require('../lib/versions');
const { redisClient, deleteKeys } = require('../lib/redis-client');
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession } = require('../lib/entities');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');

const SCALE_RECORDS = 1000;
const SCALE_TARGET = 1.25;
/** [small, large] database sizes in keys (quick: ten times fewer). */
const scaleSizes = (options) => (options.quick ? [10_000, 100_000] : [100_000, 1_000_000]);

async function databaseClient(db) {
  const { createClient } = require('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379', database: db });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** One database of `size` keys: SCALE_RECORDS lifespan records, the rest foreign keys (MSET, 1,000 a call). */
async function scaleDatabase(db, size, prefix) {
  const client = await databaseClient(db);
  const { RedisStore } = require('../../dist/providers/redis');
  const store = await lifespan.connect(benchModel(), new RedisStore({ client, prefix }));
  const repo = store.repository(BenchSession);
  for (let i = 0; i < SCALE_RECORDS; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        repo.insert(
          Object.assign(new BenchSession(), { id: `s${i + j}`, owner: 'u', payload: 'p', createdAt: new Date() }),
        ),
      ),
    );
  }
  const sends = [];
  for (let i = 0; i < size - SCALE_RECORDS; i += 1000) {
    const n = Math.min(1000, size - SCALE_RECORDS - i);
    sends.push(
      client.sendCommand(['MSET', ...Array.from({ length: n }, (_, j) => [`${prefix}f:${i + j}`, 'x']).flat()]),
    );
    if (sends.length >= 50) await Promise.all(sends.splice(0));
  }
  await Promise.all(sends);
  if ((await repo.count()) !== SCALE_RECORDS) throw new Error('scale: count() disagrees with the records written');
  return { client, store, repo };
}

async function scale(ctx) {
  const { options } = ctx;
  const [small, large] = scaleSizes(options);
  const prefix = `lifespan_scale_${process.pid}:`;
  const dbs = [];
  try {
    dbs.push(await scaleDatabase(14, small, prefix), await scaleDatabase(15, large, prefix));
    const [a, b] = dbs;
    const [index] = await indexKeys(a.client, prefix);
    const bytes =
      index === undefined ? 0 : Number(await a.client.sendCommand(['MEMORY', 'USAGE', index, 'SAMPLES', '0']));
    const measured = await interleave({
      ...timing(options),
      log: ctx.log,
      sides: { small: () => a.repo.count(), large: () => b.repo.count() },
    });
    const row = compareRow(measured, 'large', 'small', {
      case: 9,
      store: 'redis',
      measure: `count() of ${SCALE_RECORDS} records among ${large} keys ÷ among ${small} keys (scale)`,
      subjectLabel: `count() among ${large} keys`,
      referenceLabel: `count() among ${small} keys`,
      params: { records: SCALE_RECORDS, small, large, runs: options.runs, warmup: options.warmup },
      target: atMost(SCALE_TARGET),
      extra: `collection index: MEMORY USAGE ${bytes} bytes for ${SCALE_RECORDS} records`,
    });
    return [row];
  } finally {
    for (const d of dbs) {
      await d.store.close();
      await deleteKeys(d.client, prefix);
      d.client.destroy();
    }
  }
}

/** The run's collection index keys (SCAN TYPE zset under the prefix). */
async function indexKeys(client, prefix) {
  const found = [];
  let cursor = '0';
  do {
    const [next, keys] = await client.sendCommand([
      'SCAN',
      cursor,
      'MATCH',
      `${prefix}*`,
      'COUNT',
      '10000',
      'TYPE',
      'zset',
    ]);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}

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

async function redis(ctx) {
  return [...(await none(ctx)), ...(await scale(ctx))];
}

module.exports = { title: 'Redis 7 (insert/get against node-redis by hand)', run: { none: redis } };
