'use strict';
/**
 * A real three-node Apache Cassandra 5.0 cluster for the test suite, on 127.0.0.2, 127.0.0.3 and
 * 127.0.0.4 (the single test node keeps 127.0.0.1), from the same Maven Central jars as node.js.
 *
 *   startCluster(options)   start the three nodes at once, resolve when each serves CQL and has the
 *                           other two in gossip state NORMAL
 *   clusterAnswers()        the nodes of a cluster already serving CQL on those addresses, or null
 *
 * All three nodes start at the same time: each is a seed (a seed never bootstraps, so nothing waits
 * for RING_DELAY or for another node's bootstrap to finish) with auto_bootstrap false and its own
 * initial_token, which splits the Murmur3 ring in three equal ranges.
 *
 * Plain CommonJS, like node.js: used by jest's globalSetup and by `node start-cluster.js`.
 */
const path = require('node:path');
const { startNode, nodeOwner, cassandraAnswers } = require('./node');
const { sleep } = require('../system');

const HOSTS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const NATIVE_PORT = 9042;
/** The single node binds 127.0.0.1:7000; these nodes bind the same port on their own addresses. */
const STORAGE_PORT = 7000;
const CLUSTER_NAME = 'lifespan-test-cluster';
const DATACENTER = 'datacenter1';

/**
 * C1 only: the cluster's work is a few hundred statements, where the C2 compiler's warm-up costs more
 * CPU than it saves. Measured on the 2 shared cores: 10 s instead of 16 s CPU per node to a formed ring.
 */
const CLUSTER_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1'];

/** Murmur3 tokens -2^63 + i·2^64/3: three equal primary ranges. */
const TOKENS = ['-9223372036854775808', '-3074457345618258603', '3074457345618258602'];

/**
 * GossipingPropertyFileSnitch with one DC and rack: unlike SimpleSnitch it sorts the coordinator
 * itself first among the replicas, so a read at ONE sent to a node is answered from that node's data.
 */
const RACKDC = `dc=${DATACENTER}\nrack=rack1\n`;

function nodeOptions(host, index, { heapMin, heapMax, owner, log, jvmOptions }) {
  return {
    host,
    port: NATIVE_PORT,
    storagePort: STORAGE_PORT,
    heapMin,
    heapMax,
    owner,
    log,
    cluster: CLUSTER_NAME,
    jvmOptions,
    files: { 'cassandra-rackdc.properties': RACKDC },
    yaml: {
      cluster_name: CLUSTER_NAME,
      seeds: HOSTS.join(','),
      initial_token: TOKENS[index],
      auto_bootstrap: 'false',
      endpoint_snitch: 'GossipingPropertyFileSnitch',
      // The cluster tests are about hints: on, with Cassandra's default window (3 h).
      hinted_handoff_enabled: 'true',
      // The lowest Cassandra takes: a paused node is counted out in ~11 s instead of ~18 with the
      // default 8 (measured, docs/testing.md, "The Cassandra cluster").
      phi_convict_threshold: '5',
    },
    systemProperties: (workDir) => ({
      'cassandra-rackdc.properties': `file://${path.join(workDir, 'cassandra-rackdc.properties')}`,
      // Nodes joining at the same time: do not insist on one range movement at a time.
      'cassandra.consistent.rangemovement': 'false',
    }),
  };
}

/**
 * Starts the three nodes in parallel. Resolves { nodes, hosts, port, seconds, stop() } once every node
 * answers CQL and every node's gossip has the two others in state NORMAL; rejects otherwise, as soon
 * as one node fails, after stopping every node it spawned (also the ones still starting).
 */
async function startCluster(options = {}) {
  const {
    heapMin = process.env.LIFESPAN_CASSANDRA_CLUSTER_HEAP_MIN || '256m',
    heapMax = process.env.LIFESPAN_CASSANDRA_CLUSTER_HEAP_MAX || '384m',
    owner = 'run',
    log = () => {},
    timeoutMs = 180_000,
    jvmOptions = CLUSTER_JVM_OPTIONS,
    onSpawn = () => {},
  } = options;
  const started = Date.now();
  const spawned = [];
  // Set once a node is stopped from outside (teardown of a cluster still starting): the ring wait ends then.
  let stopped = false;
  const stopSpawned = () => Promise.all(spawned.map((n) => n.stop())).then(() => undefined);
  const starts = HOSTS.map((host, i) =>
    startNode({
      ...nodeOptions(host, i, { heapMin, heapMax, owner, log, jvmOptions }),
      timeoutMs,
      onSpawn: (node) => {
        spawned.push(node);
        onSpawn({
          ...node,
          stop: (graceMs) => {
            stopped = true;
            return node.stop(graceMs);
          },
          terminate: () => {
            stopped = true;
            node.terminate();
          },
        });
      },
    }),
  );
  let nodes;
  try {
    // Promise.all rejects at the first failure: the other nodes are stopped then, not after their own timeout.
    nodes = await Promise.all(starts);
    await awaitRing(timeoutMs - (Date.now() - started), () => stopped);
  } catch (err) {
    await stopSpawned();
    await Promise.allSettled(starts);
    throw err;
  }
  return {
    nodes,
    hosts: HOSTS,
    port: NATIVE_PORT,
    version: nodes[0].version,
    seconds: (Date.now() - started) / 1000,
    stop: () => Promise.all(nodes.map((n) => n.stop())).then(() => undefined),
    terminate: () => nodes.forEach((n) => n.terminate()),
  };
}

/**
 * Waits until every node's gossip has the two others in state NORMAL (joined the ring), through
 * system_views.gossip_info: one client per node, kept across the polls.
 */
async function awaitRing(timeoutMs, stopped) {
  const deadline = Date.now() + Math.max(timeoutMs, 10_000);
  const clients = HOSTS.map(nodeClient);
  let last = '';
  try {
    while (Date.now() < deadline) {
      if (stopped()) throw new Error('the Cassandra cluster was stopped while its ring formed');
      const views = await Promise.all(HOSTS.map((host, i) => normalPeers(clients[i], host)));
      if (views.every((peers) => peers.length === HOSTS.length - 1)) return;
      last = HOSTS.map((host, i) => `${host} has ${views[i].join(', ') || 'no peer'} in state NORMAL`).join('; ');
      await sleep(250);
    }
  } finally {
    await Promise.all(clients.map((c) => c.shutdown().catch(() => {})));
  }
  throw new Error(`the Cassandra cluster did not form: ${last}`);
}

/** A client that sends every statement to `host` alone. */
function nodeClient(host) {
  const { Client, policies } = require('cassandra-driver');
  return new Client({
    contactPoints: [`${host}:${NATIVE_PORT}`],
    localDataCenter: DATACENTER,
    policies: {
      loadBalancing: new policies.loadBalancing.AllowListPolicy(new policies.loadBalancing.RoundRobinPolicy(), [
        `${host}:${NATIVE_PORT}`,
      ]),
    },
    socketOptions: { connectTimeout: 5000, readTimeout: 5000 },
  });
}

/** The peers whose gossip status is NORMAL in the node's view (system_views.gossip_info needs no JMX). */
async function normalPeers(client, host) {
  try {
    const rs = await client.execute('SELECT address, status, status_with_port FROM system_views.gossip_info');
    return rs.rows
      .filter(
        (r) => String(r['address']) !== host && /^NORMAL/.test(String(r['status_with_port'] ?? r['status'] ?? '')),
      )
      .map((r) => String(r['address']));
  } catch {
    return [];
  }
}

/**
 * The cluster's nodes when all three already serve CQL: [{ host, version, owner }] with owner.json's
 * content for nodes of this test bed (null for a cluster started some other way); null when none
 * answers. Some answering and some not is an error: a start would clash with the ones that answer.
 */
async function clusterAnswers() {
  const versions = await Promise.all(HOSTS.map((host) => cassandraAnswers(host, NATIVE_PORT)));
  if (versions.every((v) => !v)) return null;
  if (versions.some((v) => !v)) {
    const up = HOSTS.filter((_, i) => versions[i]);
    throw new Error(
      `only ${up.join(', ')} of the cluster's ${HOSTS.join(', ')} answer CQL on port ${NATIVE_PORT}: ` +
        'stop the stray nodes (pgrep -af CassandraDaemon) or start the missing ones',
    );
  }
  return HOSTS.map((host, i) => ({ host, version: versions[i], owner: nodeOwner(NATIVE_PORT, host) }));
}

module.exports = { HOSTS, NATIVE_PORT, STORAGE_PORT, CLUSTER_NAME, DATACENTER, startCluster, clusterAnswers };
