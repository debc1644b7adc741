'use strict';
/**
 * `npm run bench [-- --quick | --help]`: every benchmark case, each store side by side with its
 * reference in one run; prints one table and writes it as JSON (and Markdown) under bench/results/.
 * See docs/performance.md for what each case measures and the latest numbers.
 */
const { fork, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { parseOptions, UsageError } = require('./lib/options');
const { prepareServers, prepareCassandraFor, releaseServers, serverInfo, ROOT } = require('./lib/servers');
const { textTable, markdownTable } = require('./lib/report');
const { versionOf } = require('./lib/versions');

const RESULTS = path.join(__dirname, 'results');
const PEERS = path.join(__dirname, 'peers');

const CASE_STORES = {
  write: ['sqlite', 'postgres', 'mariadb', 'cassandra'],
  reads: ['sqlite', 'postgres', 'mariadb', 'cassandra'],
  purge: ['sqlite', 'postgres'],
  model: ['none'],
  plan: ['sqlite', 'postgres', 'mariadb', 'cassandra'],
  peers: ['sqlite'],
  cosmos: ['none'],
  redis: ['none'],
  'redis-cluster': ['none'],
  memory: ['sqlite'],
  versions: ['sqlite', 'postgres'],
  // Redis runs as the store-less job (its server is not one of --stores), as case 9 does.
  iterate: ['sqlite', 'postgres', 'none'],
  'expiry-instant': ['sqlite', 'postgres', 'cassandra', 'none'],
  forecast: ['sqlite', 'postgres'],
  scale: ['sqlite', 'postgres'],
};

const log = (message) => process.stderr.write(`[bench] ${message}\n`);

/** `npm ci --prefix bench/peers` when the peers are not installed yet; the reason when that fails. */
function ensurePeers() {
  if (fs.existsSync(path.join(PEERS, 'node_modules', '.package-lock.json'))) return null;
  log('installing the peer ORMs once: npm ci --prefix bench/peers (builds better-sqlite3; about a minute)');
  const started = performance.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', PEERS, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) return `npm ci --prefix bench/peers failed (exit ${result.status})`;
  log(`peers installed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return null;
}

function runJob(job, options, info) {
  const execArgv = ['--expose-gc'];
  if (options.profile) {
    const dir = path.join(RESULTS, 'profiles');
    fs.mkdirSync(dir, { recursive: true });
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${job.caseName}-${job.store}.cpuprofile`);
  }
  return new Promise((resolve) => {
    const child = fork(path.join(__dirname, 'lib', 'job.js'), [], { execArgv, serialization: 'advanced' });
    let answer = null;
    child.on('message', (message) => (answer = message));
    child.on('exit', (code, signal) =>
      resolve(answer ?? { error: `the job process exited (code ${code}, signal ${signal}) without an answer` }),
    );
    child.send({ ...job, options, info });
  });
}

/** Jobs in case order, the Cassandra ones last (a node started for them then runs only during them). */
function jobsFor(options) {
  const jobs = [];
  for (const caseName of options.cases) {
    for (const store of CASE_STORES[caseName]) {
      if (store !== 'none' && !options.stores.includes(store)) continue;
      jobs.push({ caseName, store });
    }
  }
  return [...jobs.filter((j) => j.store !== 'cassandra'), ...jobs.filter((j) => j.store === 'cassandra')];
}

/** Which code was measured: the commit, and a digest of src/ (the working tree may hold uncommitted work). */
function codeState() {
  const git = (...args) => spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const head = git('rev-parse', '--short', 'HEAD') || 'unknown';
  const dirty = git('status', '--porcelain', '--', 'src').length > 0;
  const hash = crypto.createHash('sha1');
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts')) hash.update(file.slice(ROOT.length)).update(fs.readFileSync(file));
    }
  };
  walk(path.join(ROOT, 'src'));
  return `commit ${head}${dirty ? ' + uncommitted changes in src/' : ''}; src/ digest ${hash.digest('hex').slice(0, 12)}`;
}

function meta(options, servers, seconds, code) {
  const cpus = os.cpus();
  const sizes = [
    `writes ${options.writeRows} in units of ${options.unit} (Cassandra ${options.cassandraUnit})`,
    `gets ${options.readKeys}, finds ${options.finds}`,
    `purge SQLite ${options.purgeSqlite} rows / PostgreSQL ${options.purgePostgres} rows (half expired)`,
    `model ${options.modelSizes.join('/')} entities`,
    `plan ${options.planTables.join('/')} tables`,
    `iterate SQLite ${options.iterateSqlite} / PostgreSQL ${options.iteratePostgres} / Redis ${options.iterateRedis} rows, pages of ${options.pageSize}`,
    `scale (×10): purge SQLite ${options.scaleSqlite} / PostgreSQL ${options.scalePostgres} rows, iterate SQLite ${options.scaleIterateSqlite} / PostgreSQL ${options.scaleIteratePostgres} rows, ${options.scaleRuns} rounds`,
  ].join('; ');
  return {
    date: new Date().toISOString(),
    machine: `${cpus.length} cores (${cpus[0] ? cpus[0].model.trim() : 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    node: process.version,
    lifespan: require(path.join(ROOT, 'package.json')).version,
    drivers: ['better-sqlite3', 'pg', 'mysql2', 'cassandra-driver', 'knex']
      .map((p) => `${p} ${versionOf(p)}`)
      .join(', '),
    servers: Object.entries(servers).map(([store, s]) => (s.skip ? `${store}: skipped (${s.skip})` : s.version)),
    runs: options.runs,
    warmup: options.warmup,
    roundBudget: options.roundBudget,
    quick: options.quick,
    code,
    sizes,
    seconds,
  };
}

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${options.help}\n`);
    return;
  }
  const started = performance.now();
  const code = codeState();
  const skipped = [];
  const notes = [];
  if (options.cases.includes('peers')) {
    const why = ensurePeers();
    if (why) {
      skipped.push({ job: 'peers:sqlite', reason: why });
      options.cases = options.cases.filter((c) => c !== 'peers');
    }
  }
  const servers = await prepareServers(options);
  const stop = () => {
    servers.cassandra?.started?.stopSync();
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let info = serverInfo(servers);
  const rows = [];
  try {
    for (const job of jobsFor(options)) {
      const id = `${job.caseName}:${job.store}`;
      if (job.store === 'cassandra' && servers.cassandra.pending) {
        await prepareCassandraFor(servers, options, log);
        info = serverInfo(servers);
      }
      const server = info[job.store];
      if (server && server.skip) {
        skipped.push({ job: id, reason: server.skip });
        log(`${id}: skipped (${server.skip})`);
        continue;
      }
      log(`${id}: running`);
      const answer = await runJob(job, options, server ?? {});
      if (answer.error) {
        skipped.push({ job: id, reason: `failed: ${answer.error.split('\n').slice(0, 3).join(' / ')}` });
        log(`${id}: FAILED\n${answer.error}`);
        continue;
      }
      for (const row of answer.rows) rows.push({ ...row, rssMb: answer.maxRssMb, job: id });
      notes.push(...answer.notes.map((n) => `${id}: ${n}`));
      log(`${id}: done in ${answer.seconds.toFixed(1)} s, peak RSS ${Math.round(answer.maxRssMb)} MB`);
    }
  } finally {
    await releaseServers(servers, log);
  }
  const storeOrder = ['—', 'sqlite', 'postgres', 'mariadb', 'cassandra'];
  rows.sort((a, b) => a.case - b.case || storeOrder.indexOf(a.store) - storeOrder.indexOf(b.store));
  const result = { meta: meta(options, servers, (performance.now() - started) / 1000, code), rows, skipped, notes };
  process.stdout.write(`\n${textTable(result)}\n`);
  if (options.json) {
    fs.mkdirSync(RESULTS, { recursive: true });
    const stamp = result.meta.date.replace(/[:.]/g, '-');
    const json = `${JSON.stringify(result, null, 2)}\n`;
    fs.writeFileSync(path.join(RESULTS, `bench-${stamp}.json`), json);
    fs.writeFileSync(path.join(RESULTS, 'latest.json'), json);
    fs.writeFileSync(path.join(RESULTS, 'latest.md'), `${markdownTable(result)}\n`);
    log(`wrote bench/results/bench-${stamp}.json (and latest.json, latest.md)`);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
