'use strict';
/**
 * Case 10: Redis Cluster (3 primaries + 3 replicas; LIFESPAN_REDIS_CLUSTER names one, otherwise the
 * case starts its own with the test bed's script, test/servers/redis-cluster.js, and stops it):
 * insert with a per-write TTL and get by key through lifespan, against the same commands sent by
 * hand through the node-redis cluster client (SET key json NX EX n, GET key + JSON.parse), keys
 * spread over every primary. Each run writes under its own key prefix and deletes it afterwards.
 */
const { redisInsertGet } = require('../lib/redis-insert-get');
const { driverLabel } = require('../lib/versions');

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
  const { createCluster } = require('redis');
  const started = await clusterNodes();
  const cluster = createCluster({ rootNodes: started.nodes.map((n) => ({ url: `redis://${n}` })) });
  cluster.on('error', () => undefined);
  const prefix = `lifespan_bench_${process.pid}:`;
  try {
    await cluster.connect();
    const { RedisStore } = require('../../dist/providers/redis');
    return await redisInsertGet({
      ctx,
      store: new RedisStore({ client: cluster, prefix }),
      prefix,
      send: (key, args) => cluster.sendCommand(key, false, args),
      row: (n) => ({
        caseNo: 10,
        store: 'redis-cluster',
        label: `${driverLabel('redis')} cluster client by hand`,
        insertMeasure: `insert ×${n}, per-write TTL (SET … NX EX), keys on 3 primaries`,
      }),
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
