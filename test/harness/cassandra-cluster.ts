/**
 * Helpers for the suites that run on the three-node Cassandra cluster (started by globalSetup in
 * the background, see ./cassandra-cluster-setup): wait for it, connect to it or to one node only,
 * make a keyspace with replication factor 3, pause and resume a node.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Client, policies, type ClientOptions } from 'cassandra-driver';
import { CLUSTER_FILE_ENV, type ClusterFile } from './cassandra-cluster-setup';
import { describeStore, requireStore } from './stores';

export const CLUSTER_DATACENTER = 'datacenter1';
/** Three JVMs on two cores while other suites run: the start can take minutes under load. */
const CLUSTER_WAIT_MS = 300_000;

/** Resolves the cluster once globalSetup's start has finished; throws with the reason if it failed. */
export async function awaitCassandraCluster(timeoutMs = CLUSTER_WAIT_MS): Promise<ClusterFile> {
  requireStore('cassandra-cluster');
  const file = process.env[CLUSTER_FILE_ENV];
  if (!file) throw new Error(`${CLUSTER_FILE_ENV} is not set: the jest globalSetup did not start the cluster`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const content = JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterFile;
    if (content.state === 'up') return content;
    if (content.state === 'failed') throw new Error(`the Cassandra cluster did not start: ${content.detail}`);
    if (Date.now() > deadline) throw new Error(`the Cassandra cluster was not up after ${timeoutMs / 1000}s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * A describe block on the cluster: like describeStore, and its tests start once the cluster is up.
 * The blocks of one file run one after another, so a node one test pauses never disturbs another.
 * The cluster is shared by every file of the run, and jest runs files in parallel: keep every test
 * that pauses a node in one file (test/cassandra/cluster.live.test.ts), or a second file's tests
 * would meet a node the first one paused.
 */
export function describeCluster(title: string, fn: () => void): void {
  describeStore('cassandra-cluster', title, () => {
    beforeAll(() => awaitCassandraCluster(), CLUSTER_WAIT_MS + 10_000);
    fn();
  });
}

/**
 * A client of the cluster. With `only`, every statement goes to that node alone (an allow-list
 * policy): it coordinates them, and a read at ONE is answered from its own data (the cluster's
 * GossipingPropertyFileSnitch puts the coordinator first among the replicas).
 */
export async function clusterClient(
  cluster: ClusterFile,
  only?: string,
  options: Partial<ClientOptions> = {},
): Promise<Client> {
  const contact = only ?? cluster.hosts[0] ?? '127.0.0.2';
  const loadBalancing = only
    ? new policies.loadBalancing.AllowListPolicy(
        new policies.loadBalancing.DCAwareRoundRobinPolicy(CLUSTER_DATACENTER),
        [`${only}:${cluster.port}`],
      )
    : new policies.loadBalancing.DCAwareRoundRobinPolicy(CLUSTER_DATACENTER);
  const client = new Client({
    contactPoints: [`${contact}:${cluster.port}`],
    localDataCenter: CLUSTER_DATACENTER,
    policies: { loadBalancing },
    socketOptions: { connectTimeout: 10_000, readTimeout: 30_000 },
    ...options,
  });
  await client.connect();
  return client;
}

/** A keyspace of a unique name replicated to all three nodes (NetworkTopologyStrategy, datacenter1: 3). */
export async function createClusterKeyspace(client: Client, prefix: string): Promise<string> {
  const name = `${prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 24)}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await client.execute(
    `CREATE KEYSPACE ${name} WITH replication = {'class': 'NetworkTopologyStrategy', '${CLUSTER_DATACENTER}': 3}`,
  );
  return name;
}

function pidOf(cluster: ClusterFile, host: string): number {
  const pid = cluster.pids[cluster.hosts.indexOf(host)];
  if (typeof pid !== 'number') {
    throw new Error(
      `no JVM pid for ${host}: the cluster was not started by this test bed, so its nodes cannot be paused`,
    );
  }
  return pid;
}

/** SIGSTOP: the node stops answering at once (its process stays, with its data and sockets). */
export function pauseNode(cluster: ClusterFile, host: string): void {
  process.kill(pidOf(cluster, host), 'SIGSTOP');
}

/** SIGCONT: the node carries on; a no-op for a node that is not paused. */
export function resumeNode(cluster: ClusterFile, host: string): void {
  process.kill(pidOf(cluster, host), 'SIGCONT');
}
