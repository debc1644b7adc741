'use strict';
/**
 * `node test/servers/cassandra/start-cluster.js`: start the three-node test cluster (127.0.0.2-127.0.0.4)
 * by hand, in the foreground. Ctrl-C (or SIGTERM) stops it and deletes its data. While it runs,
 * `npm test` reuses it instead of starting its own (and leaves it running).
 */
const { startCluster, clusterAnswers } = require('./cluster');

async function main() {
  const existing = await clusterAnswers();
  if (existing) {
    console.error(`[cassandra-cluster] already running on ${existing.map((n) => n.host).join(', ')}`);
    process.exit(1);
  }
  const log = (msg) => console.log(`[cassandra-cluster] ${msg}`);
  const cluster = await startCluster({ owner: 'hand', log });
  log(
    `ready: ${cluster.hosts.join(', ')} in ${cluster.seconds.toFixed(1)}s (pids ${cluster.nodes.map((n) => n.pid).join(', ')})`,
  );
  log('press Ctrl-C to stop');
  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the cluster`);
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('exit', () => cluster.nodes.forEach((n) => n.stopSync()));
  setInterval(() => {}, 1 << 30); // stay in the foreground
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
