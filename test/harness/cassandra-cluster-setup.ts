/**
 * globalSetup's part for the three-node Cassandra cluster. Its start takes the longest of the test
 * bed (three JVMs on two cores), so globalSetup does not wait for it: the nodes start while the other
 * suites run, and the cluster suites wait for them (awaitCassandraCluster in ./cassandra-cluster).
 * How the start went reaches the test workers through a JSON file named by LIFESPAN_CASSANDRA_CLUSTER_FILE.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CassandraCluster, clusterAnswers, startCluster } from '../servers/cassandra/cluster';
import type { HarnessState } from './harness-state';
import type { StoreStatus } from './stores';

export const CLUSTER_FILE_ENV = 'LIFESPAN_CASSANDRA_CLUSTER_FILE';

/** The content of that file. */
export interface ClusterFile {
  readonly state: 'starting' | 'up' | 'failed';
  readonly detail: string;
  readonly hosts: readonly string[];
  readonly port: number;
  /** The JVM of each host, for pausing it; null for a node this test bed did not start. */
  readonly pids: ReadonlyArray<number | null>;
}

function write(file: string, content: ClusterFile): void {
  // Write then rename: a worker polling the file never reads half of it.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(content));
  fs.renameSync(`${file}.tmp`, file);
}

export async function startClusterInBackground(
  state: HarnessState,
  log: (message: string) => void,
): Promise<StoreStatus> {
  const file = path.join(os.tmpdir(), `lifespan-cassandra-cluster-${process.pid}.json`);
  process.env[CLUSTER_FILE_ENV] = file;
  state.cassandraClusterFile = file;
  const running = await clusterAnswers();
  if (running) {
    const mine = running.every((n) => n.owner?.owner === 'hand');
    const detail =
      `Cassandra ${running[0]?.version} cluster already running on ${running.map((n) => n.host).join(', ')}: ` +
      `reused, and left running${mine ? '' : ' (not started by start-cluster.js: a run that started it stops it when it ends)'}`;
    write(file, {
      state: 'up',
      detail,
      hosts: running.map((n) => n.host),
      port: 9042,
      pids: running.map((n) => n.owner?.jvmPid ?? null),
    });
    return { state: 'up', detail };
  }
  const starting = 'three nodes on 127.0.0.2-127.0.0.4 starting in the background (the cluster suites wait for them)';
  write(file, { state: 'starting', detail: starting, hosts: [], port: 9042, pids: [] });
  // An 'exit' handler runs nothing asynchronous: it stops the cluster once started (each node's
  // watchdog stops a node still starting when this process is gone).
  let started: CassandraCluster | undefined;
  process.on('exit', () => started?.terminate());
  state.cassandraCluster = startCluster({ log }).then(
    (cluster) => {
      started = cluster;
      const detail =
        `Cassandra ${cluster.version} on ${cluster.hosts.join(', ')}:${cluster.port}, ring of 3 formed in ` +
        `${cluster.seconds.toFixed(1)}s (pids ${cluster.nodes.map((n) => n.pid).join(', ')})`;
      write(file, {
        state: 'up',
        detail,
        hosts: cluster.hosts,
        port: cluster.port,
        pids: cluster.nodes.map((n) => n.pid),
      });
      log(`up: ${detail}`);
      return cluster;
    },
    (error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      write(file, { state: 'failed', detail, hosts: [], port: 9042, pids: [] });
      log(`FAILED: ${detail.split('\n')[0] ?? ''}`);
      return null;
    },
  );
  return { state: 'starting', detail: starting };
}
