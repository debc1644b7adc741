'use strict';
/**
 * The servers the benchmark talks to. PostgreSQL and MariaDB: a fresh database per run
 * (lifespan_bench_<pid>), dropped at the end, as are ones left by runs whose process is gone.
 * Cassandra: a node already answering is reused; otherwise one is started with the test bed's
 * script (test/servers/cassandra) when its jars are present, and stopped at the end.
 * A server that does not answer is reported with the reason, and its cases are skipped.
 */
const path = require('node:path');
const { URL } = require('node:url');
const fs = require('node:fs');
const os = require('node:os');

const ROOT = path.resolve(__dirname, '..', '..');
const PREFIX = 'lifespan_bench_';

function runName() {
  return `${PREFIX}${process.pid}`;
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function isStale(name) {
  const match = /^lifespan_bench_(\d+)$/.exec(name);
  return match !== null && Number(match[1]) !== process.pid && !pidAlive(Number(match[1]));
}

function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured server';
  }
}

/**
 * PostgreSQL and MariaDB come from the test bed (test/servers/relational.js): the same checks,
 * start-when-down, per-run database and stale-database cleanup as `npm test`.
 */
const relational = require('../../test/servers/relational');

async function prepareRelational(kind, adminUrl, prepare, drop) {
  try {
    const db = await prepare(adminUrl);
    return {
      version: db.version.startsWith(kind) ? db.version : `${kind} ${db.version}`,
      url: db.url,
      drop: () => drop(db.adminUrl, db.database),
    };
  } catch (error) {
    // The message may name the admin URL; show only its host (a password must not be printed).
    const reason = String(error.message || error.code)
      .split(adminUrl)
      .join(hostOf(adminUrl));
    return { skip: `${kind} at ${hostOf(adminUrl)} is not available (${reason})` };
  }
}

function preparePostgres() {
  const adminUrl = process.env.PG_URL || relational.DEFAULT_PG_URL;
  return prepareRelational('PostgreSQL', adminUrl, relational.preparePostgres, relational.dropPostgresDatabase);
}

function prepareMariadb() {
  const adminUrl = process.env.MYSQL_URL || relational.DEFAULT_MYSQL_URL;
  return prepareRelational('MariaDB', adminUrl, relational.prepareMariadb, relational.dropMariadbDatabase);
}

function parseContact(contact) {
  const match = /^(.+?)(?::(\d+))?$/.exec(contact.trim());
  return { host: match?.[1] ?? '127.0.0.1', port: Number(match?.[2] ?? 9042) };
}

async function prepareCassandra(mode, log) {
  if (mode === 'skip') return { skip: '--cassandra=skip' };
  const node = require(path.join(ROOT, 'test', 'servers', 'cassandra', 'node.js'));
  const contact = process.env.LIFESPAN_CASSANDRA_CONTACT || '127.0.0.1:9042';
  const { host, port } = parseContact(contact);
  let version = await node.cassandraAnswers(host, port);
  let started = null;
  if (!version) {
    if (mode === 'reuse') return { skip: `no Cassandra node answers at ${host}:${port} (--cassandra=reuse)` };
    if (!['127.0.0.1', 'localhost'].includes(host)) return { skip: `no Cassandra node answers at ${host}:${port}` };
    if (mode === 'auto' && !node.jarsPresent()) {
      return {
        skip: `no node on ${host}:${port} and no Cassandra jars (run npm run cassandra:fetch, or --cassandra=start)`,
      };
    }
    log(`starting a Cassandra node on ${host}:${port} with test/servers/cassandra`);
    try {
      started = await node.startNode({ port, storagePort: await storagePort(port) });
      version = started.version;
      log(`Cassandra ${version} started in ${started.seconds.toFixed(1)}s (pid ${started.pid})`);
    } catch (error) {
      // Another process (a test run) may have been starting a node on the same port meanwhile.
      version = await node.cassandraAnswers(host, port, 20000);
      if (!version) return { skip: `could not start a Cassandra node: ${String(error.message).split('\n')[0]}` };
      log(`a Cassandra node another process started answers on ${host}:${port}: reusing it`);
    }
  }
  const { Client } = require('cassandra-driver');
  const client = new Client({ contactPoints: [`${host}:${port}`], localDataCenter: 'datacenter1' });
  const keyspace = runName();
  try {
    await client.connect();
    const spaces = await client.execute('SELECT keyspace_name FROM system_schema.keyspaces');
    for (const row of spaces.rows) {
      if (isStale(row.keyspace_name)) await client.execute(`DROP KEYSPACE IF EXISTS ${row.keyspace_name}`);
    }
  } finally {
    await client.shutdown().catch(() => {});
  }
  return {
    version: `Cassandra ${version}${started ? ' (started for this run)' : ''}`,
    contact: `${host}:${port}`,
    keyspace,
    started,
    async drop() {
      const c = new Client({ contactPoints: [`${host}:${port}`], localDataCenter: 'datacenter1' });
      try {
        await c.connect();
        await c.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
      } finally {
        await c.shutdown().catch(() => {});
      }
    },
  };
}

/** 7000, or a free port when 7000 is taken (e.g. by the node of a test run on another CQL port). */
function storagePort(port) {
  const net = require('node:net');
  const preferred = port === 9042 ? 7000 : port + 1;
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => {
      const any = net.createServer();
      any.listen(0, '127.0.0.1', () => {
        const free = any.address().port;
        any.close(() => resolve(free));
      });
    });
    probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolve(preferred)));
  });
}

function prepareSqlite(options) {
  const Database = require('better-sqlite3');
  const db = new Database(':memory:');
  const version = db.prepare('SELECT sqlite_version() AS v').get().v;
  db.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), PREFIX));
  return {
    version: `SQLite ${version} (better-sqlite3 ${require('better-sqlite3/package.json').version}, ${
      options.sqliteFile === 'memory' ? 'in memory' : 'WAL file, synchronous=NORMAL'
    })`,
    dir,
    mode: options.sqliteFile,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Brings up what the selected relational stores need; `servers[store]` is the connection info or
 * { skip: reason }. Cassandra comes later (prepareCassandraFor): its jobs run last, so that a node
 * started for the run does not share the 2 cores with the other jobs.
 */
async function prepareServers(options) {
  const servers = {};
  const wanted = new Set(options.stores);
  const needsServer = (store) => wanted.has(store) && options.cases.some((c) => c !== 'model');
  servers.sqlite = wanted.has('sqlite') ? prepareSqlite(options) : { skip: 'not selected (--stores)' };
  servers.postgres = needsServer('postgres') ? await preparePostgres() : { skip: 'not selected' };
  servers.mariadb = needsServer('mariadb') ? await prepareMariadb() : { skip: 'not selected' };
  servers.cassandra = { skip: 'no Cassandra case ran', pending: true };
  return servers;
}

/** Reuses or starts the Cassandra node before the first Cassandra job. */
async function prepareCassandraFor(servers, options, log) {
  servers.cassandra = await prepareCassandra(options.cassandra, log);
  return servers.cassandra;
}

/** Drops the run's databases and keyspace, and stops a Cassandra node this run started. */
async function releaseServers(servers, log) {
  for (const [store, info] of Object.entries(servers)) {
    if (!info || info.skip || !info.drop) continue;
    await info.drop().catch((error) => log(`${store}: cleanup failed: ${error.message}`));
  }
  const node = servers.cassandra?.started;
  if (node) {
    await node.stop();
    log('Cassandra node stopped');
  }
}

/** What a job process needs to know (plain data). */
function serverInfo(servers) {
  const info = {};
  for (const [store, s] of Object.entries(servers)) {
    info[store] = s.skip
      ? { skip: s.skip }
      : { version: s.version, url: s.url, contact: s.contact, keyspace: s.keyspace, dir: s.dir, mode: s.mode };
  }
  return info;
}

module.exports = { prepareServers, prepareCassandraFor, releaseServers, serverInfo, ROOT };
