/**
 * jest globalSetup: brings up every selected local store once per run, in parallel, and tells the
 * test workers where they are through process.env (which the workers inherit):
 *
 *   LIFESPAN_CASSANDRA_CONTACT  127.0.0.1:9042 (a node started here, or one already running there)
 *   PG_URL / MYSQL_URL          a fresh lifespan_test_<time>_<pid> database on each server
 *   REDIS_URL / LIFESPAN_REDIS_PREFIX  the Redis 7 server and this run's key prefix
 *   LIFESPAN_REDIS_CLUSTER      the Redis Cluster's nodes (host:port,…), started here or reused
 *   LIFESPAN_STORE_STATUS       JSON: per store, 'up' / 'not-selected' and a one-line detail
 *
 * LIFESPAN_STORES=sqlite,postgres selects some local stores (default: all; in CI, all or the run
 * fails, see selectedStores in ./stores). A selected store that cannot be brought up fails the
 * whole run with its reason. One line per store is printed.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { type CassandraNode, cassandraAnswers, nodeOwner, startNode } from '../servers/cassandra/node';
import { type SelectedPaths, startClusterInBackground } from './cassandra-cluster-setup';
import { DEFAULT_MYSQL_URL, DEFAULT_PG_URL, prepareMariadb, preparePostgres } from '../servers/relational';
import { tcpOpen } from '../servers/system';
import { launchCosmosServer } from './cosmos';
import { freePort } from '../servers/redis-cluster';
import { prepareRedis } from './redis';
import { prepareRedisCluster } from './redis-cluster';
import { HARNESS_STATE_KEY, type HarnessState, releaseHarness } from './harness-state';
import {
  LOCAL_STORES,
  type LocalStoreName,
  STATUS_ENV,
  STORES,
  type StoreName,
  type StoreStatus,
  missingEnv,
  selectedStores,
} from './stores';

const say = (line: string): void => {
  process.stdout.write(`[lifespan test bed] ${line}\n`);
};

function parseContact(contact: string): { host: string; port: number } {
  const match = /^(.+?)(?::(\d+))?$/.exec(contact.trim());
  return { host: match?.[1] ?? '127.0.0.1', port: Number(match?.[2] ?? 9042) };
}

async function setupCassandra(state: HarnessState): Promise<string> {
  const requested = process.env['LIFESPAN_CASSANDRA_CONTACT'];
  const { host, port } = parseContact(requested || '127.0.0.1:9042');
  const contact = `${host}:${port}`;
  const local = ['127.0.0.1', 'localhost'].includes(host);
  let note = '';
  const running = await cassandraAnswers(host, port);
  if (running) {
    const owner = local ? nodeOwner(port) : null;
    if (owner?.owner !== 'run') {
      process.env['LIFESPAN_CASSANDRA_CONTACT'] = contact;
      return `Cassandra ${running} already running on ${contact}: reused, and left running`;
    }
    // Another jest run's node: that run stops it when it ends, possibly in the middle of ours.
    note = ` (the node on ${port} belongs to another test run, pid ${owner.parentPid})`;
  } else if (!local) {
    throw new Error(`nothing answers CQL at LIFESPAN_CASSANDRA_CONTACT=${contact}`);
  } else if (await tcpOpen('127.0.0.1', port)) {
    if (requested) throw new Error(`port ${port} is taken by a process that does not answer CQL`);
    note = ` (port ${port} is taken by a process that does not answer CQL)`;
  }
  const log = (m: string): void => say(`cassandra: ${m}`);
  const start = async (cqlPort: number): Promise<CassandraNode> => {
    const storagePort = cqlPort === 9042 && !(await tcpOpen('127.0.0.1', 7000)) ? 7000 : await freePort();
    return startNode({ port: cqlPort, storagePort, log });
  };
  let node: CassandraNode;
  if (note) {
    node = await start(await freePort());
  } else {
    try {
      node = await start(port);
    } catch (err) {
      // Lost a race for the port with another run starting at the same moment: use free ports.
      if (!/Failed to bind|in use by another process|Address already in use/.test(String(err))) throw err;
      note = ` (port ${port} was taken while starting)`;
      node = await start(await freePort());
    }
  }
  state.cassandra = node;
  process.env['LIFESPAN_CASSANDRA_CONTACT'] = `127.0.0.1:${node.port}`;
  // Interrupted or crashing runs: SIGTERM the node's process group; its watchdog escalates to
  // SIGKILL and deletes the data folder once this process is gone.
  const onSignal = (signal: NodeJS.Signals): void => {
    // Synchronous write: jest may have wrapped process.stdout, and process.exit follows at once.
    fs.writeSync(1, `[lifespan test bed] ${signal}: stopping the Cassandra node (pid ${node.pid})\n`);
    node.terminate();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  const onExit = (): void => node.terminate();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', onExit);
  state.removeHandlers = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
  };
  return (
    `Cassandra ${node.version} on 127.0.0.1:${node.port}, started in ${node.seconds.toFixed(1)}s ` +
    `(pid ${node.pid})${note}`
  );
}

async function setupRedisCluster(state: HarnessState): Promise<string> {
  const { line, started } = await prepareRedisCluster();
  if (started) {
    state.redisCluster = started;
    // Synchronous kill on exit; the cluster's watchdog covers a jest killed outright.
    process.on('exit', started.terminate);
  }
  return line;
}

async function setupPostgres(state: HarnessState): Promise<string> {
  // The first run in this process decides the server; later runs (jest --watch) reuse that choice.
  const adminUrl = process.env['LIFESPAN_PG_ADMIN_URL'] || process.env['PG_URL'] || DEFAULT_PG_URL;
  process.env['LIFESPAN_PG_ADMIN_URL'] = adminUrl;
  const db = await preparePostgres(adminUrl, (m) => say(`postgres: ${m}`));
  state.postgres = db;
  process.env['PG_URL'] = db.url;
  return `PostgreSQL ${db.version}${db.started ? ' (started it)' : ''}, database ${db.database}`;
}

async function setupMariadb(state: HarnessState): Promise<string> {
  const adminUrl = process.env['LIFESPAN_MYSQL_ADMIN_URL'] || process.env['MYSQL_URL'] || DEFAULT_MYSQL_URL;
  process.env['LIFESPAN_MYSQL_ADMIN_URL'] = adminUrl;
  const db = await prepareMariadb(adminUrl, (m) => say(`mariadb: ${m}`));
  state.mariadb = db;
  process.env['MYSQL_URL'] = db.url;
  return `MariaDB ${db.version}${db.started ? ' (started it)' : ''}, database ${db.database}`;
}

async function setupSqlite(): Promise<string> {
  const db = new Database(':memory:');
  try {
    const row = db.prepare('SELECT sqlite_version() AS version, unixepoch() + 1 AS later').get() as {
      version: string;
      later: number;
    };
    if (!(row.later > 1_600_000_000)) throw new Error(`unixepoch() + 1 gave ${String(row.later)}`);
    return `SQLite ${row.version} (better-sqlite3, in memory)`;
  } finally {
    db.close();
  }
}

async function setupCosmos(): Promise<string> {
  const local = await launchCosmosServer();
  try {
    await local.client.getDatabaseAccount();
    const { database } = await local.client.databases.createIfNotExists({ id: 'harness-check' });
    const { resource } = await database.containers.createIfNotExists({
      id: 'ttl',
      partitionKey: { paths: ['/pk'] },
      defaultTtl: 60,
    });
    if (resource?.defaultTtl !== 60)
      throw new Error(`container defaultTtl read back as ${String(resource?.defaultTtl)}`);
    return '@vercel/cosmosdb-server in-process (each test file starts its own on a random port)';
  } finally {
    await local.close();
  }
}

function liveLine(name: StoreName, vars: readonly string[]): string {
  const missing = missingEnv(vars);
  if (missing.length > 0) {
    return `${name}: skipped (optional live store): ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set`;
  }
  let where = '';
  const raw = process.env[vars[0] ?? ''] ?? '';
  try {
    where = ` at ${new URL(raw).host}`; // host only: never print credentials
  } catch {
    where = '';
  }
  return `${name}: live suite enabled${where}`;
}

export default async function globalSetup(globalConfig?: SelectedPaths): Promise<void> {
  const started = Date.now();
  const selected = selectedStores();
  const state: HarnessState = {};
  (globalThis as Record<string, unknown>)[HARNESS_STATE_KEY] = state;
  say(`starting ${selected.join(', ')}`);

  const tasks: Record<LocalStoreName, () => Promise<string | StoreStatus>> = {
    sqlite: setupSqlite,
    postgres: () => setupPostgres(state),
    mariadb: () => setupMariadb(state),
    cassandra: () => setupCassandra(state),
    cosmos: setupCosmos,
    redis: () => prepareRedis((m) => say(`redis: ${m}`)),
    'cassandra-cluster': () => startClusterInBackground(state, (m) => say(`cassandra-cluster: ${m}`), globalConfig),
    'redis-cluster': () => setupRedisCluster(state),
  };
  const results = await Promise.allSettled(selected.map((name) => tasks[name]()));

  const status: Partial<Record<StoreName, StoreStatus>> = {};
  const failures: string[] = [];
  selected.forEach((name, i) => {
    const result = results[i];
    if (result?.status === 'fulfilled') {
      const value = result.value;
      status[name] = typeof value === 'string' ? { state: 'up', detail: value } : value;
      say(`${name}: ${status[name]?.state}: ${status[name]?.detail}`);
    } else {
      const reason = result?.reason instanceof Error ? result.reason.message : String(result?.reason);
      status[name] = { state: 'failed', detail: reason };
      failures.push(`${name} (required) failed to start:\n${reason}`);
      say(`${name}: FAILED: ${reason.split('\n')[0] ?? ''}`);
    }
  });
  for (const name of LOCAL_STORES) {
    if (!selected.includes(name)) {
      status[name] = { state: 'not-selected', detail: `not in LIFESPAN_STORES=${process.env['LIFESPAN_STORES']}` };
      say(`${name}: not started (not in LIFESPAN_STORES)`);
    }
  }
  for (const store of STORES) {
    if (store.kind === 'live') say(liveLine(store.name, store.env));
  }

  if (failures.length > 0) {
    await releaseHarness(state);
    throw new Error(`lifespan test bed: required store(s) did not start\n\n${failures.join('\n\n')}`);
  }
  process.env[STATUS_ENV] = JSON.stringify(status);
  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}
