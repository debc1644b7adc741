'use strict';
/**
 * A Redis Cluster of 3 primaries and 3 replicas of the installed redis-server (7.0+), on free
 * 127.0.0.1 ports, config and data in a temp dir, no persistence; plain CommonJS so the test bed
 * (test/harness/redis-cluster.ts) and the benchmark (bench/cases/redis-cluster.js) share it.
 * startRedisCluster() resolves once every node says cluster_state:ok and every replica is in sync.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { createClient } = require('redis');
const { hasCommand, pidAlive, runChecked, sleep, tail, tcpOpen } = require('./system');

const SIZE = 6;
/** Short node timeout: a replica takes over about 2-3 s after its primary stops answering. */
const NODE_TIMEOUT_MS = 1000;
const READY_CAP_MS = 60_000;

/** A TCP port free on 127.0.0.1 right now (the OS picks it; another process may take it later). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Probes that keep one connection per node (opened on first use, again after a failure), so
 * polling a starting cluster costs one round trip per node and poll. undefined: no answer.
 */
function nodeProbe() {
  const clients = new Map();
  const command = async (node, args) => {
    let client = clients.get(node);
    try {
      if (!client) {
        client = createClient({ url: `redis://${node}`, socket: { connectTimeout: 2000, reconnectStrategy: false } });
        client.on('error', () => undefined);
        clients.set(node, client);
        await client.connect();
      }
      return String(await client.sendCommand([...args]));
    } catch {
      clients.delete(node);
      if (client && client.isOpen) client.destroy();
      return undefined;
    }
  };
  return {
    command,
    close() {
      for (const client of clients.values()) if (client.isOpen) client.destroy();
      clients.clear();
    },
  };
}

/** One command on one node over a connection of its own; undefined when it does not answer. */
async function nodeCommand(node, args) {
  const probe = nodeProbe();
  try {
    return await probe.command(node, args);
  } finally {
    probe.close();
  }
}

function field(info, name) {
  return info === undefined ? undefined : (new RegExp(`^${name}:(\\S+)`, 'm').exec(info) || [])[1];
}

/**
 * True when every node says `cluster_state:ok` with all slots assigned and each primary has a
 * connected replica (so a failover test can rely on a replica to promote).
 */
async function clusterHealthy(nodes, send = nodeCommand) {
  const infos = await Promise.all(nodes.map((n) => send(n, ['CLUSTER', 'INFO'])));
  if (!infos.every((i) => field(i, 'cluster_state') === 'ok' && field(i, 'cluster_slots_ok') === '16384')) {
    return false;
  }
  const replication = await Promise.all(nodes.map((n) => send(n, ['INFO', 'replication'])));
  const replicas = replication.filter((r) => field(r, 'role') === 'slave');
  return replicas.length > 0 && replicas.every((r) => field(r, 'master_link_status') === 'up');
}

async function waitFor(what, cap, check) {
  const until = Date.now() + cap;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Redis Cluster: ${what} not reached within ${cap / 1000} s`);
    await sleep(100);
  }
}

function serverArgs(dir, port, busPort) {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--cluster-enabled',
    'yes',
    '--cluster-port',
    String(busPort),
    '--cluster-config-file',
    path.join(dir, `nodes-${port}.conf`),
    '--cluster-node-timeout',
    String(NODE_TIMEOUT_MS),
    // A replica may take over however long it was disconnected (a test may kill a primary at once).
    '--cluster-replica-validity-factor',
    '0',
    '--dir',
    dir,
    '--dbfilename',
    `dump-${port}.rdb`,
    '--logfile',
    path.join(dir, `${port}.log`),
    '--save',
    '',
    '--appendonly',
    'no',
    // Replicas sync at once (the default waits 5 s for more replicas to share one transfer).
    '--repl-diskless-sync-delay',
    '0',
  ];
}

const quote = (arg) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Starts 6 nodes in one process group, creates the cluster and waits until it is healthy. */
async function startRedisCluster() {
  if (!hasCommand('redis-server') || !hasCommand('redis-cli')) {
    throw new Error('redis-server / redis-cli are not installed (apt-get install redis-server)');
  }
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-redis-cluster-'));
  const ports = [];
  while (ports.length < SIZE * 2) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const data = ports.slice(0, SIZE);
  const nodes = data.map((p) => `127.0.0.1:${p}`);
  const argsOf = new Map(data.map((p, i) => [`127.0.0.1:${p}`, serverArgs(dir, p, ports[SIZE + i])]));
  // One bash holds every node: the nodes share its process group, which stop() and the watchdog end.
  const script = `${[...argsOf.values()].map((args) => `redis-server ${args.map(quote).join(' ')} &`).join('\n')}\nwait\n`;
  const restarted = [];
  const group = spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' });
  const pid = group.pid;
  group.unref();
  // If jest dies without stopping the nodes (even by SIGKILL), the watchdog stops the group.
  const watchdog = spawn(
    process.execPath,
    [path.join(__dirname, 'cassandra', 'watchdog.js'), String(process.pid), String(pid)],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  let stopped = false;
  const terminate = () => {
    if (stopped) return;
    stopped = true;
    for (const target of [-pid, ...restarted]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    try {
      if (watchdog.pid) process.kill(watchdog.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('every node listening', READY_CAP_MS, async () =>
      (await Promise.all(data.map((p) => tcpOpen('127.0.0.1', p, 200)))).every(Boolean),
    );
    await runChecked('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '1', '--cluster-yes']);
    const probe = nodeProbe();
    try {
      await waitFor('cluster_state:ok on every node', READY_CAP_MS, () => clusterHealthy(nodes, probe.command));
    } finally {
      probe.close();
    }
  } catch (error) {
    const logs = data.map((p) => path.join(dir, `${p}.log`)).filter((f) => fs.existsSync(f));
    const last = logs.map((f) => `${path.basename(f)}:\n${tail(fs.readFileSync(f, 'utf8'), 5)}`).join('\n');
    terminate();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${last}`);
  }
  const version = field(await nodeCommand(nodes[0], ['INFO', 'server']), 'redis_version') || 'unknown';
  return {
    nodes,
    version,
    seconds: (Date.now() - started) / 1000,
    pid,
    async kill(node) {
      const nodePid = Number(field(await nodeCommand(node, ['INFO', 'server']), 'process_id'));
      if (!Number.isInteger(nodePid) || nodePid <= 0) throw new Error(`no process_id from ${node}`);
      process.kill(nodePid, 'SIGKILL');
      await waitFor(`${node} gone`, 5000, async () => !pidAlive(nodePid));
    },
    restart(node) {
      const child = spawn('redis-server', argsOf.get(node) || [], { stdio: 'ignore' });
      if (child.pid) restarted.push(child.pid);
      child.unref();
    },
    async stop() {
      terminate();
    },
    terminate,
  };
}

module.exports = { startRedisCluster, clusterHealthy, nodeCommand, nodeProbe, freePort };
