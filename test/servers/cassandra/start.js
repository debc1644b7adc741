'use strict';
/**
 * `node test/servers/cassandra/start.js [--port 9042] [--quiet]`: start the test node by hand, in the
 * foreground, with its log on stdout. Ctrl-C (or SIGTERM) stops it and deletes its data.
 * While it runs, `npm test` reuses it instead of starting its own (and leaves it running).
 */
const { startNode, cassandraAnswers } = require('./node');

async function main() {
  const args = process.argv.slice(2);
  const portArg = args.indexOf('--port');
  const port = portArg >= 0 ? Number(args[portArg + 1]) : 9042;
  const quiet = args.includes('--quiet');
  const existing = await cassandraAnswers('127.0.0.1', port);
  if (existing) {
    console.error(`[cassandra] a node (release ${existing}) already answers on 127.0.0.1:${port}`);
    process.exit(1);
  }
  const log = (msg) => console.log(`[cassandra] ${msg}`);
  const node = await startNode({
    port,
    storagePort: port === 9042 ? 7000 : port + 1,
    echo: !quiet,
    owner: 'hand',
    log,
  });
  log(`ready: Cassandra ${node.version} on 127.0.0.1:${port} (pid ${node.pid}) in ${node.seconds.toFixed(1)}s`);
  log('press Ctrl-C to stop');
  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the node`);
    await node.stop();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('exit', () => node.stopSync());
  setInterval(() => {}, 1 << 30); // stay in the foreground
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
