/**
 * The Redis Cluster of the test bed: 3 primaries and 3 replicas of the installed redis-server
 * (7.0+), on free 127.0.0.1 ports, config and data in a temp dir, no persistence. globalSetup
 * starts one per run (in parallel with the other stores) and names it to the workers in
 * LIFESPAN_REDIS_CLUSTER (`127.0.0.1:p1,127.0.0.1:p2,…`); a cluster already named there and
 * healthy is reused and left running. A test that breaks a cluster (failover) starts its own.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, createCluster, type RedisClusterType } from 'redis';
import { hasCommand, pidAlive, runChecked, sleep, tail, tcpOpen } from '../servers/system';
import { freePort } from './ports';

export const CLUSTER_ENV = 'LIFESPAN_REDIS_CLUSTER';
const SIZE = 6;
/** Short node timeout: a replica takes over about 2-3 s after its primary stops answering. */
const NODE_TIMEOUT_MS = 1000;
const READY_CAP_MS = 60_000;

export interface RedisClusterBed {
  /** `127.0.0.1:port` of every node. */
  readonly nodes: readonly string[];
  readonly version: string;
  readonly seconds: number;
  /** Pid of the process group holding every node. */
  readonly pid: number;
  /** SIGKILLs one node (for failover tests). */
  kill(node: string): Promise<void>;
  /** Starts a killed node again with its own config file: it rejoins the cluster (as a replica once it was failed over). */
  restart(node: string): void;
  /** SIGTERM to the group, then removes the temp dir. */
  stop(): Promise<void>;
  /** Synchronous stop for 'exit' handlers. */
  terminate(): void;
}

type NodeCommand = (node: string, args: readonly string[]) => Promise<string | undefined>;

/**
 * Probes that keep one connection per node (opened on first use, again after a failure), so
 * polling a starting cluster costs one round trip per node and poll. undefined: no answer.
 */
export function nodeProbe(): { command: NodeCommand; close(): void } {
  const clients = new Map<string, ReturnType<typeof createClient>>();
  const command: NodeCommand = async (node, args) => {
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
      if (client?.isOpen) client.destroy();
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
export async function nodeCommand(node: string, args: readonly string[]): Promise<string | undefined> {
  const probe = nodeProbe();
  try {
    return await probe.command(node, args);
  } finally {
    probe.close();
  }
}

function field(info: string | undefined, name: string): string | undefined {
  return info === undefined ? undefined : new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];
}

/**
 * True when every node says `cluster_state:ok` with all slots assigned and each primary has a
 * connected replica (so a failover test can rely on a replica to promote).
 */
export async function clusterHealthy(nodes: readonly string[], send: NodeCommand = nodeCommand): Promise<boolean> {
  const infos = await Promise.all(nodes.map((n) => send(n, ['CLUSTER', 'INFO'])));
  if (!infos.every((i) => field(i, 'cluster_state') === 'ok' && field(i, 'cluster_slots_ok') === '16384')) {
    return false;
  }
  const replication = await Promise.all(nodes.map((n) => send(n, ['INFO', 'replication'])));
  const replicas = replication.filter((r) => field(r, 'role') === 'slave');
  return replicas.length > 0 && replicas.every((r) => field(r, 'master_link_status') === 'up');
}

async function waitFor(what: string, cap: number, check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + cap;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Redis Cluster: ${what} not reached within ${cap / 1000} s`);
    await sleep(100);
  }
}

function serverArgs(dir: string, port: number, busPort: number): string[] {
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

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Starts 6 nodes in one process group, creates the cluster and waits until it is healthy. */
export async function startRedisCluster(): Promise<RedisClusterBed> {
  if (!hasCommand('redis-server') || !hasCommand('redis-cli')) {
    throw new Error('redis-server / redis-cli are not installed (apt-get install redis-server)');
  }
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-redis-cluster-'));
  const ports: number[] = [];
  while (ports.length < SIZE * 2) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const data = ports.slice(0, SIZE);
  const nodes = data.map((p) => `127.0.0.1:${p}`);
  const argsOf = new Map(data.map((p, i) => [`127.0.0.1:${p}`, serverArgs(dir, p, ports[SIZE + i] as number)]));
  // One bash holds every node: the nodes share its process group, which stop() and the watchdog end.
  const script = `${[...argsOf.values()].map((args) => `redis-server ${args.map(quote).join(' ')} &`).join('\n')}\nwait\n`;
  const restarted: number[] = [];
  const group = spawn('bash', ['-c', script], { detached: true, stdio: 'ignore' });
  const pid = group.pid as number;
  group.unref();
  // If jest dies without stopping the nodes (even by SIGKILL), the watchdog stops the group.
  const watchdog = spawn(
    process.execPath,
    [path.join(__dirname, '../servers/cassandra/watchdog.js'), String(process.pid), String(pid)],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  let stopped = false;
  const terminate = (): void => {
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
  const version = field(await nodeCommand(nodes[0] as string, ['INFO', 'server']), 'redis_version') ?? 'unknown';
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
      const child = spawn('redis-server', argsOf.get(node) ?? [], { stdio: 'ignore' });
      if (child.pid) restarted.push(child.pid);
      child.unref();
    },
    async stop() {
      terminate();
    },
    terminate,
  };
}

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
