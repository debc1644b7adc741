'use strict';
/**
 * Command-line options of `npm run bench -- [options]`. Every size has a default (the issue's) and a
 * --quick value (a run under a minute on 2 cores); any of them can be set by hand.
 */

const STORES = ['sqlite', 'postgres', 'mariadb', 'cassandra'];
const CASES = [
  'write', 'reads', 'purge', 'model', 'plan', 'peers', 'cosmos', 'memory', 'redis', 'versions', 'iterate', 'expiry-instant', 'forecast', 'redis-cluster', 'scale',
];

/** name → [default, quick, help] */
const SIZES = {
  writeRows: [20000, 200, 'rows inserted per run (case 1 and 6)'],
  unit: [500, 500, 'rows per unit of work (case 1 and 6)'],
  cassandraUnit: [50, 50, 'rows per unit of work on Cassandra (a logged batch; see docs/performance.md)'],
  readKeys: [20000, 100, 'get() by key per run (case 2 and 6)'],
  finds: [1000, 10, 'find() per run (case 2)'],
  purgeSqlite: [2000000, 20000, 'rows in the SQLite purge table (half of them expired)'],
  purgePostgres: [400000, 5000, 'rows in the PostgreSQL purge table (half of them expired)'],
  modelSizes: ['100,1000,10000', '50,200,500', 'generated entities (case 4)'],
  planTables: ['20,200', '5,20', 'tables / Cassandra tables in the live store (case 5)'],
  cosmosOps: [200, 50, 'inserts and gets per run on the in-process Cosmos server (case 7)'],
  redisOps: [2000, 200, 'inserts and gets per run on the Redis 7 server and on Redis Cluster (cases 9 and 10)'],
  memoryRows: [200000, 20000, 'rows in the one unit of work whose peak RSS is measured (case 8)'],
  versionUpdates: [5000, 200, 'update() with a version per run (case 11)'],
  iterateSqlite: [1000000, 20000, 'rows iterate() walks on SQLite (case 10)'],
  iteratePostgres: [200000, 5000, 'rows iterate() walks on PostgreSQL (case 10)'],
  iterateRedis: [200000, 5000, 'records iterate() walks on Redis (case 10)'],
  pageSize: [1000, 500, 'rows per page of iterate() and findPage() (case 10)'],
  pagesPerWalk: [50, 8, 'findPage() pages per timed walk (case 10)'],
  forecastRows: [200000, 5000, 'rows in the forecast table (case 13)'],
  scaleSqlite: [2000000, 20000, 'rows of the smaller SQLite purge of the scale case; the larger has 10× (case 14)'],
  scalePostgres: [400000, 4000, 'rows of the smaller PostgreSQL purge of the scale case; the larger has 10× (case 14)'],
  scaleIterateSqlite: [200000, 2000, 'rows of the smaller SQLite iterate() walk; the larger has 10× (case 14)'],
  scaleIteratePostgres: [40000, 1000, 'rows of the smaller PostgreSQL iterate() walk; the larger has 10× (case 14)'],
  scaleRuns: [3, 3, 'timed rounds per size of the scale case (case 14)'],
  runs: [5, 5, 'timed rounds per comparison (at least 5)'],
  roundBudget: [4000, 0, 'ms a fast comparison keeps adding rounds for (up to 25 rounds)'],
  warmup: [1, 1, 'untimed runs per side before timing'],
};

const USAGE = `usage: npm run bench -- [options]

  --quick                 small sizes (under a minute once the peers are installed)
  --only=<cases>          comma list of ${CASES.join(', ')} (default: all)
  --stores=<stores>       comma list of ${STORES.join(', ')} (default: all that answer)
  --cassandra=<how>       reuse (a node on LIFESPAN_CASSANDRA_CONTACT, default 127.0.0.1:9042) or start one
                          with test/servers/cassandra (default: auto = reuse, else start); skip
  --sqlite-file=memory    run the SQLite cases on an in-memory database (default: a WAL file in a temp folder)
  --profile               write a V8 CPU profile per job to bench/results/profiles/
  --sides=<names>         run only these sides of each comparison (e.g. lifespan, to profile it alone)
  --no-json               do not write bench/results/*.json
${Object.entries(SIZES)
  .map(([name, [def, quick, help]]) => `  --${kebab(name)}=<n>`.padEnd(26) + `${help} (default ${def}; quick ${quick})`)
  .join('\n')}

environment: PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), MYSQL_URL (default
mysql://root@127.0.0.1:3306/), LIFESPAN_CASSANDRA_CONTACT (default 127.0.0.1:9042).`;

function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function camel(name) {
  return name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}

function list(value, allowed, what) {
  const items = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!allowed.includes(item)) throw new UsageError(`unknown ${what} '${item}': use ${allowed.join(', ')}`);
  }
  return items;
}

function numbers(value, name) {
  const items = String(value).split(',').map(Number);
  const min = name === 'warmup' || name === 'roundBudget' ? 0 : 1;
  if (items.length === 0 || items.some((n) => !Number.isSafeInteger(n) || n < min)) {
    throw new UsageError(`--${kebab(name)} must be whole numbers ≥ ${min}, got '${value}'`);
  }
  return items;
}

class UsageError extends Error {}

function parseOptions(argv) {
  const given = {};
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new UsageError(`unexpected argument '${arg}'`);
    given[camel(match[1])] = match[2] === undefined ? true : match[2];
  }
  if (given.help) return { help: USAGE };
  const quick = given.quick === true;
  const options = {
    quick,
    cases: given.only ? list(given.only, CASES, 'case') : [...CASES],
    stores: given.stores ? list(given.stores, STORES, 'store') : [...STORES],
    cassandra: given.cassandra ?? 'auto',
    sqliteFile: given.sqliteFile === 'memory' ? 'memory' : 'file',
    profile: given.profile === true,
    sides: typeof given.sides === 'string' ? given.sides.split(',').filter(Boolean) : null,
    json: given.json !== 'false' && given.noJson !== true,
  };
  if (!['auto', 'reuse', 'start', 'skip'].includes(options.cassandra)) {
    throw new UsageError(`--cassandra must be auto, reuse, start or skip, got '${options.cassandra}'`);
  }
  const known = new Set(['quick', 'only', 'stores', 'cassandra', 'sqliteFile', 'profile', 'sides', 'json', 'noJson']);
  for (const [name, [def, quickValue]] of Object.entries(SIZES)) {
    known.add(name);
    const raw = given[name] ?? (quick ? quickValue : def);
    const parsed = numbers(raw, name);
    options[name] = typeof def === 'string' ? parsed : parsed[0];
  }
  for (const name of Object.keys(given)) {
    if (!known.has(name)) throw new UsageError(`unknown option --${kebab(name)} (see --help)`);
  }
  if (options.runs < 5) throw new UsageError('--runs must be at least 5');
  return options;
}

module.exports = { parseOptions, UsageError, USAGE, STORES, CASES };
