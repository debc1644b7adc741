/**
 * What globalSetup started, kept on globalThis for globalTeardown (both run in jest's parent
 * process), and how to release it.
 */
import fs from 'node:fs';
import type { CassandraCluster } from '../servers/cassandra/cluster';
import type { CassandraNode, SpawnedNode } from '../servers/cassandra/node';
import type { RedisClusterBed } from './redis-cluster';
import { releaseClusterLock } from './cassandra-cluster-setup';
import { dropMariadbDatabase, dropPostgresDatabase, type PreparedDatabase } from '../servers/relational';

export const HARNESS_STATE_KEY = '__lifespanTestBed';

export interface HarnessState {
  /** Set only when this run started the node (a node that was already running is left alone). */
  cassandra?: CassandraNode;
  postgres?: PreparedDatabase;
  mariadb?: PreparedDatabase;
  removeHandlers?: () => void;
  /**
   * The three-node cluster's start, still running or done: resolves the cluster when this run started
   * it (stopped at the end), null when it reused one (left running) or the start failed.
   */
  cassandraCluster?: Promise<CassandraCluster | null>;
  /** The file that tells test workers how the cluster's start went (removed at the end). */
  cassandraClusterFile?: string;
  /** Set only when this run started the Redis Cluster (one named by LIFESPAN_REDIS_CLUSTER is left alone). */
  redisCluster?: RedisClusterBed;
  /** The cluster's nodes this run spawned, from the moment each was spawned (stopped at the end, started or not). */
  clusterNodes?: SpawnedNode[];
  /** The cluster lock, when this run holds it. */
  clusterLock?: string;
  /** Set when teardown begins: a cluster start finishing later writes no status file. */
  tearingDown?: boolean;
}

/**
 * Stops the Cassandra node, the Cassandra cluster's nodes and the Redis Cluster this run started (SIGTERM to each process group,
 * SIGKILL after 10 s; cluster nodes still starting too), releases the cluster lock, and
 * drops this run's databases (kept when LIFESPAN_KEEP_DB=1). Never throws; returns problems as text.
 */
export async function releaseHarness(state: HarnessState): Promise<string[]> {
  const keepDb = process.env['LIFESPAN_KEEP_DB'] === '1';
  state.tearingDown = true;
  const jobs: Array<Promise<void>> = [];
  if (state.cassandra) jobs.push(state.cassandra.stop());
  // The nodes as spawned, not the start: a cluster still starting is stopped now, not awaited.
  for (const node of state.clusterNodes ?? []) jobs.push(node.stop());
  if (state.cassandraClusterFile) fs.rmSync(state.cassandraClusterFile, { force: true });
  if (state.redisCluster) jobs.push(state.redisCluster.stop());
  if (state.postgres && !keepDb) jobs.push(dropPostgresDatabase(state.postgres.adminUrl, state.postgres.database));
  if (state.mariadb && !keepDb) jobs.push(dropMariadbDatabase(state.mariadb.adminUrl, state.mariadb.database));
  const results = await Promise.allSettled(jobs);
  if (state.clusterLock) releaseClusterLock(state.clusterLock);
  state.removeHandlers?.();
  delete state.cassandra;
  delete state.redisCluster;
  delete state.postgres;
  delete state.mariadb;
  delete state.removeHandlers;
  delete state.cassandraCluster;
  delete state.cassandraClusterFile;
  delete state.clusterNodes;
  delete state.clusterLock;
  return results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
}
