/**
 * globalSetup's part for the three-node Cassandra cluster. Its start takes the longest of the test
 * bed (three JVMs on two cores), so globalSetup does not wait for it: the nodes start while the other
 * suites run, and the cluster suites wait for them (awaitCassandraCluster in ./cassandra-cluster).
 * How the start went reaches the test workers through a JSON file named by LIFESPAN_CASSANDRA_CLUSTER_FILE.
 *
 * The cluster binds fixed addresses (127.0.0.2-127.0.0.4) and its tests pause nodes, so one jest run
 * at a time uses it: a lock file holds the owning run's pid, and a second run refuses while that
 * run lives (its cluster suites fail with the reason) instead of sharing, pausing or stopping it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterAnswers, startCluster } from '../servers/cassandra/cluster';
import { pidAlive } from '../servers/system';
import type { HarnessState } from './harness-state';
import type { StoreStatus } from './stores';

export const CLUSTER_FILE_ENV = 'LIFESPAN_CASSANDRA_CLUSTER_FILE';
/** One per machine: the addresses are. */
export const CLUSTER_LOCK = path.join(os.tmpdir(), 'lifespan-cassandra-cluster.lock');

/** The content of that file. */
export interface ClusterFile {
  readonly state: 'starting' | 'up' | 'failed';
  readonly detail: string;
  readonly hosts: readonly string[];
  readonly port: number;
  /** The JVM of each host, for pausing it; null for a node neither this run nor start-cluster.js started. */
  readonly pids: ReadonlyArray<number | null>;
}

/** The part of jest's globalConfig that names the selected test files. */
export interface SelectedPaths {
  readonly rootDir?: string;
  readonly testPathPatterns?: { readonly patterns?: readonly string[] } | readonly string[];
}

function write(state: HarnessState, file: string, content: ClusterFile): void {
  // Teardown removed the file: a start that finishes later must not bring it back.
  if (state.tearingDown) return;
  // Write then rename: a worker polling the file never reads half of it.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(content));
  fs.renameSync(`${file}.tmp`, file);
}

/**
 * Takes the lock for this process; returns the pid of another live run that holds it, or null when
 * this run holds it now (a lock of a dead run is taken over).
 */
export function takeClusterLock(lock = CLUSTER_LOCK): number | null {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(fs.readFileSync(lock, 'utf8').trim());
    if (owner === process.pid) return null;
    if (Number.isInteger(owner) && owner > 0 && pidAlive(owner)) return owner;
    fs.rmSync(lock, { force: true });
  }
  throw new Error(`could not take ${lock}: other runs keep replacing it`);
}

/** Removes the lock if this process holds it. */
export function releaseClusterLock(lock = CLUSTER_LOCK): void {
  try {
    if (Number(fs.readFileSync(lock, 'utf8').trim()) === process.pid) fs.rmSync(lock, { force: true });
  } catch {
    /* no lock */
  }
}

/** The suites that need the cluster: the ones calling describeCluster or awaitCassandraCluster. */
function clusterSuites(rootDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(full);
      else if (
        /\.test\.ts$/.test(entry.name) &&
        /describeCluster\(|awaitCassandraCluster\(/.test(fs.readFileSync(full, 'utf8'))
      )
        found.push(full);
    }
  };
  walk(path.join(rootDir, 'test'));
  return found;
}

/** False when the run names test paths and none of them is a cluster suite (jest matches them as regexps). */
export function clusterSuiteSelected(selected: SelectedPaths | undefined): boolean {
  const given = selected?.testPathPatterns;
  const patterns = Array.isArray(given)
    ? given
    : ((given as { patterns?: readonly string[] } | undefined)?.patterns ?? []);
  if (patterns.length === 0 || !selected?.rootDir) return true;
  const regexps = patterns.map((p) => new RegExp(p, 'i'));
  return clusterSuites(selected.rootDir).some((suite) => regexps.some((r) => r.test(suite)));
}

export async function startClusterInBackground(
  state: HarnessState,
  log: (message: string) => void,
  selected?: SelectedPaths,
): Promise<StoreStatus> {
  if (!clusterSuiteSelected(selected)) {
    return { state: 'not-selected', detail: 'no cluster suite among the selected test paths: not started' };
  }
  const file = path.join(os.tmpdir(), `lifespan-cassandra-cluster-${process.pid}.json`);
  process.env[CLUSTER_FILE_ENV] = file;
  state.cassandraClusterFile = file;
  const holder = takeClusterLock();
  if (holder !== null) {
    const detail =
      `another jest run (pid ${holder}) uses the three-node cluster on 127.0.0.2-127.0.0.4 and pauses its nodes: ` +
      `wait for it to end, or leave cassandra-cluster out of LIFESPAN_STORES (lock: ${CLUSTER_LOCK})`;
    write(state, file, { state: 'failed', detail, hosts: [], port: 9042, pids: [] });
    return { state: 'starting', detail: `refused: ${detail}` };
  }
  state.clusterLock = CLUSTER_LOCK;
  const running = await clusterAnswers();
  if (running) {
    // Only nodes started by hand (start-cluster.js) may be paused: a node another run started is its own.
    const byHand = running.every((n) => n.owner?.owner === 'hand');
    const detail =
      `Cassandra ${running[0]?.version} cluster already running on ${running.map((n) => n.host).join(', ')}: ` +
      `reused, and left running${byHand ? '' : ' (not started by start-cluster.js: its nodes are not paused)'}`;
    write(state, file, {
      state: 'up',
      detail,
      hosts: running.map((n) => n.host),
      port: 9042,
      pids: running.map((n) => (n.owner?.owner === 'hand' ? n.owner.jvmPid : null)),
    });
    return { state: 'up', detail };
  }
  const starting = 'three nodes on 127.0.0.2-127.0.0.4 starting in the background (the cluster suites wait for them)';
  write(state, file, { state: 'starting', detail: starting, hosts: [], port: 9042, pids: [] });
  // Each node is kept from the moment it is spawned, so teardown stops a cluster still starting
  // instead of waiting for it (each node's watchdog stops it if this process dies first).
  const spawned: NonNullable<HarnessState['clusterNodes']> = [];
  state.clusterNodes = spawned;
  state.cassandraCluster = startCluster({ log, onSpawn: (node) => spawned.push(node) }).then(
    (cluster) => {
      const detail =
        `Cassandra ${cluster.version} on ${cluster.hosts.join(', ')}:${cluster.port}, ring of 3 formed in ` +
        `${cluster.seconds.toFixed(1)}s (pids ${cluster.nodes.map((n) => n.pid).join(', ')})`;
      write(state, file, {
        state: 'up',
        detail,
        hosts: cluster.hosts,
        port: cluster.port,
        pids: cluster.nodes.map((n) => n.pid),
      });
      if (!state.tearingDown) log(`up: ${detail}`);
      return cluster;
    },
    (error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      write(state, file, { state: 'failed', detail, hosts: [], port: 9042, pids: [] });
      if (!state.tearingDown) log(`FAILED: ${detail.split('\n')[0] ?? ''}`);
      return null;
    },
  );
  return { state: 'starting', detail: starting };
}
