'use strict';
/**
 * Case 9: Redis 7 on 127.0.0.1:6379 (REDIS_URL): insert with a per-write TTL and get by key
 * through lifespan, against the same commands sent with node-redis by hand (SET key json NX EX n,
 * GET key + JSON.parse into the entity), the hand side encoding the same JSON. Each run writes
 * under its own key prefix and deletes it afterwards.
 */
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession, sessionValues } = require('../lib/entities');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
const { driverLabel } = require('../lib/versions');

const TARGET = 1.2;

async function deleteKeys(client, prefix) {
  let cursor = '0';
  do {
    const [next, keys] = await client.sendCommand(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', '1000']);
    cursor = next;
    if (keys.length > 0) await client.sendCommand(['UNLINK', ...keys]);
  } while (cursor !== '0');
}

async function none(ctx) {
  const { options } = ctx;
  const { createClient } = require('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' });
  client.on('error', () => undefined);
  await client.connect();
  const prefix = `lifespan_bench_${process.pid}:`;
  try {
    const { RedisStore } = require('../../dist/providers/redis');
    const db = await lifespan.connect(benchModel(), new RedisStore({ client, prefix }));
    await db.ensureCollections();
    const repo = db.repository(BenchSession);
    const n = options.redisOps;
    const unit = (round, i) =>
      Object.assign(new BenchSession(), sessionValues(i), { id: `${round}-${i}`, createdAt: new Date() });
    const rawKey = (id) => `${prefix}raw_sessions:${id}`;
    const runsOf = { lifespan: 0, raw: 0 };
    const writes = await interleave({
      ...timing(options),
      log: ctx.log,
      prepare: (side) => {
        runsOf[side] += 1;
      },
      sides: {
        lifespan: async () => {
          for (let i = 0; i < n; i++) await repo.insert(unit(`l${runsOf.lifespan}`, i), { ttl: 600 });
        },
        raw: async () => {
          for (let i = 0; i < n; i++) {
            const v = unit(`r${runsOf.raw}`, i);
            const json = JSON.stringify({ ...v, createdAt: v.createdAt.toISOString() });
            if ((await client.sendCommand(['SET', rawKey(v.id), json, 'NX', 'EX', '600'])) === null) {
              throw new Error('raw: duplicate');
            }
          }
        },
      },
    });
    const lastLife = `l${runsOf.lifespan}`;
    const lastRaw = `r${runsOf.raw}`;
    const reads = await interleave({
      ...timing(options),
      log: ctx.log,
      sides: {
        lifespan: async () => {
          for (let i = 0; i < n; i++) if (!(await repo.get(`${lastLife}-${i}`))) throw new Error('lifespan: not found');
        },
        raw: async () => {
          for (let i = 0; i < n; i++) {
            const text = await client.sendCommand(['GET', rawKey(`${lastRaw}-${i}`)]);
            if (text === null) throw new Error('raw: not found');
            const v = JSON.parse(text);
            Object.assign(new BenchSession(), v, { createdAt: new Date(v.createdAt) });
          }
        },
      },
    });
    await db.close();
    const label = `${driverLabel('redis')} by hand`;
    const params = { ops: n, runs: options.runs, warmup: options.warmup };
    return [
      compareRow(writes, 'lifespan', 'raw', {
        case: 9,
        store: 'redis',
        measure: `insert ×${n}, per-write TTL (SET … NX EX)`,
        referenceLabel: label,
        params,
        target: atMost(TARGET),
      }),
      compareRow(reads, 'lifespan', 'raw', {
        case: 9,
        store: 'redis',
        measure: `get() by key ×${n} (GET)`,
        referenceLabel: label,
        params,
        target: atMost(TARGET),
      }),
    ];
  } finally {
    await deleteKeys(client, prefix);
    client.destroy();
  }
}

module.exports = { title: 'Redis 7 (insert/get against node-redis by hand)', run: { none } };
