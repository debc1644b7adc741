'use strict';
/**
 * Case 10: Redis Cluster (3 primaries + 3 replicas; LIFESPAN_REDIS_CLUSTER names one, otherwise the
 * case starts its own with the test bed's script, test/servers/redis-cluster.js, and stops it):
 * insert with a per-write TTL and get by key through lifespan, against the same commands sent by
 * hand through the node-redis cluster client (SET key json NX EX n, GET key + JSON.parse), keys
 * spread over every primary. Each run writes under its own key prefix and deletes it afterwards.
 */
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession } = require('../lib/entities');
const { insertThenGet, insertGetRows } = require('../lib/insert-get');
const { driverLabel } = require('../lib/versions');

const TARGET = 1.2;

async function deleteKeys(cluster, prefix) {
  for (const master of cluster.masters) {
    const node = await cluster.nodeClient(master);
    let cursor = '0';
    do {
      const [next, keys] = await node.sendCommand(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', '1000']);
      cursor = next;
      await Promise.all(keys.map((k) => cluster.sendCommand(k, false, ['UNLINK', k])));
    } while (cursor !== '0');
  }
}

async function clusterNodes() {
  const named = (process.env.LIFESPAN_REDIS_CLUSTER || '').trim();
  if (named) return { nodes: named.split(','), stop: async () => undefined };
  const { startRedisCluster } = require('../../test/servers/redis-cluster');
  const bed = await startRedisCluster();
  return { nodes: bed.nodes, stop: () => bed.stop() };
}

async function none(ctx) {
  const { options } = ctx;
  const { createCluster } = require('redis');
  const started = await clusterNodes();
  const cluster = createCluster({ rootNodes: started.nodes.map((n) => ({ url: `redis://${n}` })) });
  cluster.on('error', () => undefined);
  const prefix = `lifespan_bench_${process.pid}:`;
  try {
    await cluster.connect();
    const { RedisStore } = require('../../dist/providers/redis');
    const db = await lifespan.connect(benchModel(), new RedisStore({ client: cluster, prefix }));
    await db.ensureCollections();
    const n = options.redisOps;
    const rawKey = (id) => `${prefix}raw_sessions:${id}`;
    const results = await insertThenGet({
      ctx,
      n,
      repo: db.repository(BenchSession),
      extra: () => ({ createdAt: new Date() }),
      rawInsert: async (v) => {
        const key = rawKey(v.id);
        const json = JSON.stringify({ ...v, createdAt: v.createdAt.toISOString() });
        if ((await cluster.sendCommand(key, false, ['SET', key, json, 'NX', 'EX', '600'])) === null) {
          throw new Error('raw: duplicate');
        }
      },
      rawGet: async (id) => {
        const key = rawKey(id);
        const text = await cluster.sendCommand(key, false, ['GET', key]);
        if (text === null) return false;
        const v = JSON.parse(text);
        return Object.assign(new BenchSession(), v, { createdAt: new Date(v.createdAt) });
      },
    });
    await db.close();
    return insertGetRows(results, {
      ctx,
      n,
      caseNo: 10,
      store: 'redis-cluster',
      label: `${driverLabel('redis')} cluster client by hand`,
      target: TARGET,
      insertMeasure: `insert ×${n}, per-write TTL (SET … NX EX), keys on 3 primaries`,
      getMeasure: `get() by key ×${n} (GET)`,
    });
  } finally {
    if (cluster.isOpen) {
      await deleteKeys(cluster, prefix);
      cluster.destroy();
    }
    await started.stop();
  }
}

module.exports = { title: 'Redis Cluster (insert/get against the node-redis cluster client by hand)', run: { none } };
