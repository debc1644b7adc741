/**
 * The Redis Cluster of the test bed (started by test/servers/redis-cluster.js: 3 primaries and 3
 * replicas of the installed redis-server on free 127.0.0.1 ports, no persistence). globalSetup
 * starts one per run (in parallel with the other stores) and names it to the workers in
 * LIFESPAN_REDIS_CLUSTER (`127.0.0.1:p1,127.0.0.1:p2,…`); a cluster already named there and
 * healthy is reused and left running. A test that breaks a cluster (failover) starts its own.
 */
import { createCluster, type RedisClusterType } from 'redis';
import { clusterHealthy, startRedisCluster, type RedisClusterBed } from '../servers/redis-cluster';

export { clusterHealthy, nodeCommand, startRedisCluster, type RedisClusterBed } from '../servers/redis-cluster';

export const CLUSTER_ENV = 'LIFESPAN_REDIS_CLUSTER';

/**
 * globalSetup: reuses the cluster named by LIFESPAN_REDIS_CLUSTER when it is healthy, else starts
 * one. Returns the line to print and the started cluster (undefined when reused).
 */
export async function prepareRedisCluster(): Promise<{ line: string; started?: RedisClusterBed }> {
  const named = (process.env[CLUSTER_ENV] ?? '').trim();
  if (named !== '') {
    const nodes = named.split(',').map((n) => n.trim());
    if (!(await clusterHealthy(nodes))) throw new Error(`${CLUSTER_ENV}=${named} does not answer as a healthy cluster`);
    return { line: `Redis Cluster at ${named}: reused, and left running` };
  }
  const bed = await startRedisCluster();
  process.env[CLUSTER_ENV] = bed.nodes.join(',');
  return {
    line: `Redis ${bed.version} cluster of 3 primaries + 3 replicas on ${bed.nodes.join(',')}, started in ${bed.seconds.toFixed(1)}s (pid ${bed.pid})`,
    started: bed,
  };
}

/** A node-redis cluster client, as an application makes one. */
export type TestRedisCluster = RedisClusterType;

/** A connected cluster client on the given nodes (default: the run's cluster). */
export async function redisClusterClient(nodes?: readonly string[]): Promise<TestRedisCluster> {
  const seeds = nodes ?? (process.env[CLUSTER_ENV] ?? '').split(',').filter((n) => n !== '');
  if (seeds.length === 0) throw new Error(`${CLUSTER_ENV} is not set: the jest globalSetup did not start the cluster`);
  const cluster: TestRedisCluster = createCluster({ rootNodes: seeds.map((n) => ({ url: `redis://${n}` })) });
  cluster.on('error', () => undefined);
  await cluster.connect();
  return cluster;
}

/** Deletes every key under a prefix on every primary (SCAN per primary, one UNLINK per key: keys of many slots). */
export async function deleteClusterKeys(cluster: TestRedisCluster, prefix: string): Promise<void> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  for (const master of cluster.masters) {
    const node = await cluster.nodeClient(master);
    let cursor = '0';
    do {
      const [next, keys] = (await node.sendCommand(['SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000'])) as [
        string,
        string[],
      ];
      cursor = next;
      await Promise.all(keys.map((k) => cluster.sendCommand(k, false, ['UNLINK', k])));
    } while (cursor !== '0');
  }
}
