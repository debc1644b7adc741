/**
 * The stores the test suite runs against: how each is reached, whether the run requires it, and
 * helpers for test files to gate on them.
 *
 * Local stores (sqlite, postgres, mariadb, cassandra, cosmos, redis, redis-cluster) can all run on the CI machine and are
 * started by globalSetup (test/harness/global-setup.ts). Each selected one is REQUIRED: if it cannot
 * be started the whole run fails with the reason; its tests never skip silently. LIFESPAN_STORES
 * (comma-separated) narrows the selection for a quick local run; the suites of stores left out
 * then print one line saying so.
 *
 * Live stores (mongodb, cosmos-live) need a server elsewhere and run only when their environment
 * variables are set; otherwise their suite prints one line saying why it skipped.
 */

import type { StoreName as RegisteredStoreName } from '../../src/providers/registry';

export type LocalStoreName =
  | 'sqlite'
  | 'postgres'
  | 'mariadb'
  | 'cassandra'
  | 'cosmos'
  | 'redis'
  // Cassandra with replicas (test/servers/cassandra/cluster.js):
  | 'cassandra-cluster'
  // Redis Cluster, 3 primaries + 3 replicas (test/servers/redis-cluster.js):
  | 'redis-cluster';
export type LiveStoreName = 'mongodb' | 'cosmos-live';
export type StoreName = LocalStoreName | LiveStoreName;

export interface StoreInfo {
  readonly name: StoreName;
  /** The lifespan store it is a deployment of (a name of the registry, src/providers/stores.ts). */
  readonly store: RegisteredStoreName;
  /** 'local': started by globalSetup on this machine; 'live': an external server named by env vars. */
  readonly kind: 'local' | 'live';
  readonly description: string;
  /** How tests reach it. */
  readonly reachedBy: string;
  /** Environment variables that configure it (live stores: all must be set for the suite to run). */
  readonly env: readonly string[];
  /** A required store's failure to start fails the whole run. Every local store is required when selected. */
  readonly required: boolean;
}

export const STORES: readonly StoreInfo[] = [
  {
    name: 'sqlite',
    store: 'relational',
    kind: 'local',
    description: 'SQLite through knex + better-sqlite3, in memory',
    reachedBy: "knexFor('sqlite') (test/harness/relational.ts)",
    env: [],
    required: true,
  },
  {
    name: 'postgres',
    store: 'relational',
    kind: 'local',
    description: 'PostgreSQL server (Debian package, started/installed by globalSetup when absent)',
    reachedBy: "PG_URL (a fresh lifespan_test_* database per run); knexFor('postgres')",
    env: ['PG_URL'],
    required: true,
  },
  {
    name: 'mariadb',
    store: 'relational',
    kind: 'local',
    description: 'MariaDB server (Debian package, started/installed by globalSetup when absent)',
    reachedBy: "MYSQL_URL (a fresh lifespan_test_* database per run); knexFor('mariadb')",
    env: ['MYSQL_URL'],
    required: true,
  },
  {
    name: 'cassandra',
    store: 'cassandra',
    kind: 'local',
    description: 'Apache Cassandra 5.0 node from Maven Central jars, one per run (test/servers/cassandra)',
    reachedBy: 'LIFESPAN_CASSANDRA_CONTACT (127.0.0.1:9042); cassandraClient() (test/harness/cassandra.ts)',
    env: ['LIFESPAN_CASSANDRA_CONTACT'],
    required: true,
  },
  {
    name: 'cosmos',
    store: 'cosmos',
    kind: 'local',
    description: '@vercel/cosmosdb-server, in-process per test file (stores TTL settings, never expires anything)',
    reachedBy: 'startCosmosServer() (test/harness/cosmos.ts)',
    env: [],
    required: true,
  },
  {
    name: 'redis',
    store: 'redis',
    kind: 'local',
    description: 'Redis 7 server (found on 127.0.0.1:6379, or started by globalSetup with redis-server)',
    reachedBy: 'REDIS_URL + a per-run key prefix LIFESPAN_REDIS_PREFIX; redisClient() (test/harness/redis.ts)',
    env: ['REDIS_URL'],
    required: true,
  },
  {
    name: 'cassandra-cluster',
    store: 'cassandra',
    kind: 'local',
    description:
      'three Apache Cassandra 5.0 nodes on 127.0.0.2-127.0.0.4 (test/servers/cassandra/cluster.js), started in ' +
      'the background while the other suites run',
    reachedBy: 'awaitCassandraCluster(), clusterClient(host) (test/harness/cassandra-cluster.ts)',
    env: ['LIFESPAN_CASSANDRA_CLUSTER_FILE'],
    required: true,
  },
  {
    name: 'redis-cluster',
    store: 'redis',
    kind: 'local',
    description:
      'Redis Cluster of 3 primaries + 3 replicas (redis-server 7 on free 127.0.0.1 ports, started by globalSetup)',
    reachedBy: 'LIFESPAN_REDIS_CLUSTER (host:port,…); redisClusterClient() (test/harness/redis-cluster.ts)',
    env: ['LIFESPAN_REDIS_CLUSTER'],
    required: true,
  },
  {
    name: 'mongodb',
    store: 'mongodb',
    kind: 'live',
    description: 'a real MongoDB server (none can run on the CI machine)',
    reachedBy: 'MONGODB_URI',
    env: ['MONGODB_URI'],
    required: false,
  },
  {
    name: 'cosmos-live',
    store: 'cosmos',
    kind: 'live',
    description: 'a real Azure Cosmos DB account',
    reachedBy: 'COSMOS_ENDPOINT + COSMOS_KEY; liveCosmosClient() (test/harness/cosmos.ts)',
    env: ['COSMOS_ENDPOINT', 'COSMOS_KEY'],
    required: false,
  },
];

/** The local stores, in the order of STORES. */
export const LOCAL_STORES: readonly LocalStoreName[] = STORES.filter((s) => s.kind === 'local').map(
  (s) => s.name as LocalStoreName,
);

export function storeInfo(name: StoreName): StoreInfo {
  const info = STORES.find((s) => s.name === name);
  if (!info) throw new Error(`unknown store '${name}'`);
  return info;
}

/** What globalSetup found for one store; passed to the workers as JSON in LIFESPAN_STORE_STATUS. */
export interface StoreStatus {
  /** 'starting': still coming up in the background (the cassandra cluster); its suites wait for it. */
  state: 'up' | 'not-selected' | 'failed' | 'skipped' | 'starting';
  /** One line: version and address when up, the reason otherwise. */
  detail: string;
}

export const STATUS_ENV = 'LIFESPAN_STORE_STATUS';

/**
 * The local stores this run starts: LIFESPAN_STORES=sqlite,cassandra selects some; unset (or 'all')
 * means all of them. Throws on an unknown name, and on any narrowing in CI: a CI run that leaves a
 * store out would pass while that store's suites never ran.
 */
export function selectedStores(env: NodeJS.ProcessEnv = process.env): LocalStoreName[] {
  const raw = (env['LIFESPAN_STORES'] ?? '').trim();
  if (raw === '' || raw === 'all') return [...LOCAL_STORES];
  const names = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !(LOCAL_STORES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new Error(`LIFESPAN_STORES names unknown store(s) ${unknown.join(', ')}; known: ${LOCAL_STORES.join(', ')}`);
  }
  const selected = LOCAL_STORES.filter((n) => names.includes(n));
  const left = LOCAL_STORES.filter((n) => !selected.includes(n));
  if (isCi(env) && left.length > 0) {
    throw new Error(
      `LIFESPAN_STORES=${raw} leaves out ${left.join(', ')} in a CI run (CI=${String(env['CI'])}): ` +
        'CI runs every local store; unset LIFESPAN_STORES (.ci/run does) or unset CI for a local run',
    );
  }
  return selected;
}

/** CI is set the way CI services set it (any value but empty, 'false' or '0'). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env['CI'] ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

function readStatus(): Partial<Record<StoreName, StoreStatus>> | undefined {
  const raw = process.env[STATUS_ENV];
  if (!raw) return undefined;
  return JSON.parse(raw) as Partial<Record<StoreName, StoreStatus>>;
}

/** The missing environment variables of a live store (empty when it is configured). */
export function missingEnv(vars: readonly string[]): string[] {
  return vars.filter((v) => !process.env[v]);
}

/** Why a store cannot be used in this worker, or undefined when it can. */
export function unavailableReason(name: StoreName): string | undefined {
  const info = storeInfo(name);
  if (info.kind === 'live') {
    const missing = missingEnv(info.env);
    return missing.length > 0 ? `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set` : undefined;
  }
  const status = readStatus();
  if (!status) {
    return `${STATUS_ENV} is not set: the jest globalSetup (test/harness/global-setup.ts) did not run`;
  }
  const s = status[name];
  if (!s) return `globalSetup reported nothing for '${name}'`;
  return s.state === 'up' || s.state === 'starting' ? undefined : s.detail;
}

/** True when the store is up (local) or configured (live) for this run. */
export function storeAvailable(name: StoreName): boolean {
  return unavailableReason(name) === undefined;
}

/** Throws, with the reason, unless the store is up (local) or configured (live). */
export function requireStore(name: StoreName): void {
  const reason = unavailableReason(name);
  if (reason !== undefined) throw new Error(`store '${name}' is required but not available: ${reason}`);
}

/** True when the store was deliberately left out of this run with LIFESPAN_STORES. */
export function storeNotSelected(name: LocalStoreName): boolean {
  return readStatus()?.[name]?.state === 'not-selected';
}

/**
 * Registers the suite as skipped: jest counts its one test as skipped (never as passed), and the
 * reason is printed when the file is collected, so it shows in the normal `npm test` output.
 */
function registerSkip(title: string, line: string): void {
  describe(title, () => {
    // Straight to stdout: jest drops the buffered console output of a suite whose tests all skip.
    process.stdout.write(`${line}\n`);
    // Only ever reached when the store is absent (see the callers): a conditional, explained skip.
    const skipped = it.skip;
    skipped(line.replace(/^\[lifespan\] /, ''), () => undefined);
  });
}

/**
 * A describe block for a local store. Runs `fn` when the store is up; if it was left out with
 * LIFESPAN_STORES, registers one test that prints so (and passes); otherwise (it should be up but
 * is not) every test of the block fails with the reason: a required store never skips silently.
 */
export function describeStore(name: LocalStoreName, title: string, fn: () => void): void {
  if (storeNotSelected(name)) {
    registerSkip(title, `[lifespan] skipped "${title}": store '${name}' is not in LIFESPAN_STORES`);
    return;
  }
  describe(title, () => {
    beforeAll(() => requireStore(name));
    fn();
  });
}

/**
 * A describe block for an optional live store. When any of `envVars` is missing it registers one
 * test that prints why the suite skipped (the test passes); otherwise it runs `fn`.
 */
export function describeLive(name: LiveStoreName, envVars: readonly string[], fn: () => void): void {
  const title = `${name} (live)`;
  const missing = missingEnv(envVars);
  if (missing.length > 0) {
    registerSkip(
      title,
      `[lifespan] skipped live ${name} suite: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set`,
    );
    return;
  }
  describe(title, fn);
}
