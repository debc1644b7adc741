'use strict';
/**
 * PostgreSQL and MariaDB for the test bed: check that the server answers; if it does not and the
 * URL is the default local one, start it (installing it from Debian's packages first on a machine
 * without it); then create a fresh database for this run and drop the ones older runs left behind.
 *
 * Plain CommonJS; used by test/harness/global-setup.ts.
 */
const fs = require('node:fs');
const { URL } = require('node:url');
const { spawnSync } = require('node:child_process');
const { runChecked, aptInstall, pidAlive, sleep, tail } = require('./system');

const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_MYSQL_URL = 'mysql://root@127.0.0.1:3306/';
const DB_PREFIX = 'lifespan_test_';
/**
 * A run database is stale when the process that made it is gone (on a local server), or, on a
 * remote server that other machines may share, when it is older than STALE_MIN_MS and no process
 * of that pid runs here; any is stale after STALE_MAX_MS.
 */
const STALE_MIN_MS = 10 * 60 * 1000;
const STALE_MAX_MS = 12 * 60 * 60 * 1000;

/** lifespan_test_<epoch seconds>_<pid>: unique per run, and tells later runs whether it is stale. */
function runDatabaseName() {
  return `${DB_PREFIX}${Math.floor(Date.now() / 1000)}_${process.pid}`;
}

function isStale(name, keep, localServer) {
  if (name === keep) return false;
  const match = /^lifespan_test_(\d+)_(\d+)$/.exec(name);
  if (!match) return false;
  const ageMs = Date.now() - Number(match[1]) * 1000;
  if (ageMs > STALE_MAX_MS) return true;
  return (localServer || ageMs > STALE_MIN_MS) && !pidAlive(Number(match[2]));
}

function isLocal(url) {
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(new URL(url).hostname);
}

/** The URL with its database (path) replaced. */
function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function isDefaultLocal(url, port) {
  const u = new URL(url);
  return ['127.0.0.1', 'localhost'].includes(u.hostname) && Number(u.port || port) === port;
}

async function waitFor(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await check();
    if (last.ok) return last;
    await sleep(300);
  }
  return last;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

async function pgTry(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const rs = await client.query('SHOW server_version');
    return { ok: true, version: String(rs.rows[0].server_version) };
  } catch (err) {
    return { ok: false, error: err.message || String(err.code || err) };
  } finally {
    await client.end().catch(() => {});
  }
}

function pgVersions() {
  try {
    return fs
      .readdirSync('/etc/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** Starts the Debian cluster "main" (installing postgresql first when absent). */
async function startLocalPostgres(log) {
  let installed = false;
  if (pgVersions().length === 0 || !fs.existsSync('/usr/bin/pg_ctlcluster')) {
    await aptInstall(['postgresql'], log);
    installed = true;
  }
  const version = pgVersions()[0];
  if (!version) throw new Error('postgresql is installed but /etc/postgresql holds no cluster version');
  if (!fs.existsSync(`/etc/postgresql/${version}/main`)) {
    log(`pg_createcluster ${version} main`);
    await runChecked('pg_createcluster', [version, 'main']);
    installed = true;
  }
  if (installed) {
    // A fresh Debian cluster asks for passwords over TCP; the test bed connects as postgres without one.
    const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
    const text = fs.readFileSync(hba, 'utf8');
    if (!text.includes('# lifespan test bed')) {
      fs.writeFileSync(
        hba,
        `# lifespan test bed: trust local TCP connections\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n${text}`,
      );
    }
  }
  log(`pg_ctlcluster --skip-systemctl-redirect ${version} main start`);
  // "already running" exits non-zero with code 2; the connection check below is what counts.
  spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'ignore' });
  if (installed)
    spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'reload'], { stdio: 'ignore' });
}

/**
 * Makes sure PostgreSQL answers at `adminUrl` (starting/installing the local one when that URL is
 * the default local server), creates this run's database and drops stale ones.
 * Resolves { url (of the run database), database, version, adminUrl, started }.
 */
async function preparePostgres(adminUrl = DEFAULT_PG_URL, log = () => {}) {
  let probe = await pgTry(adminUrl);
  let started = false;
  if (!probe.ok) {
    if (!isDefaultLocal(adminUrl, 5432)) throw new Error(`PostgreSQL at ${adminUrl} does not answer: ${probe.error}`);
    log(`PostgreSQL does not answer (${probe.error}); starting it`);
    await startLocalPostgres(log);
    started = true;
    probe = await waitFor(() => pgTry(adminUrl), 30_000);
    if (!probe.ok) throw new Error(`PostgreSQL still does not answer at ${adminUrl} after starting it: ${probe.error}`);
  }
  const { Client } = require('pg');
  const admin = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  const database = runDatabaseName();
  try {
    const rs = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${DB_PREFIX}%`]);
    for (const { datname } of rs.rows) {
      if (isStale(datname, database, isLocal(adminUrl)))
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end().catch(() => {});
  }
  return { url: withDatabase(adminUrl, database), database, version: probe.version, adminUrl, started };
}

async function dropPostgresDatabase(adminUrl, database) {
  const { Client } = require('pg');
  const admin = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await admin.end().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// MariaDB

function mysqlOptions(url) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password || ''),
    database: u.pathname.length > 1 ? decodeURIComponent(u.pathname.slice(1)) : undefined,
    connectTimeout: 3000,
  };
}

async function mysqlTry(url) {
  const mysql = require('mysql2/promise');
  let conn;
  try {
    conn = await mysql.createConnection(mysqlOptions(url));
    const [rows] = await conn.query('SELECT VERSION() AS v');
    return { ok: true, version: String(rows[0].v) };
  } catch (err) {
    return { ok: false, error: err.message || String(err.code || err) };
  } finally {
    if (conn) await conn.end().catch(() => {});
  }
}

/** Starts /usr/sbin/mariadbd (installing mariadb-server first when absent). */
async function startLocalMariadb(log) {
  let installed = false;
  if (!fs.existsSync('/usr/sbin/mariadbd')) {
    await aptInstall(['mariadb-server'], log);
    installed = true;
  }
  fs.mkdirSync('/run/mysqld', { recursive: true });
  spawnSync('chown', ['mysql:mysql', '/run/mysqld'], { stdio: 'ignore' });
  log('start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql');
  await runChecked('start-stop-daemon', [
    '--start',
    '--oknodo',
    '--background',
    '--exec',
    '/usr/sbin/mariadbd',
    '--',
    '--user=mysql',
  ]);
  return installed;
}

/** On a freshly installed server: let root in over TCP from 127.0.0.1 with an empty password, as on the CI kind. */
async function allowRootOverTcp(log) {
  const sql =
    "ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('');" +
    "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';" +
    "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;" +
    'FLUSH PRIVILEGES;';
  for (let i = 0; i < 60; i++) {
    const r = spawnSync('mariadb', ['-uroot', '-e', sql], { encoding: 'utf8' });
    if (r.status === 0) return;
    if (i === 59) throw new Error(`could not configure root@127.0.0.1: ${tail(r.stderr || r.stdout || '')}`);
    await sleep(500);
  }
  log('configured root@127.0.0.1');
}

/** Like preparePostgres, for MariaDB / MySQL. Resolves { url, database, version, adminUrl, started }. */
async function prepareMariadb(adminUrl = DEFAULT_MYSQL_URL, log = () => {}) {
  let probe = await mysqlTry(adminUrl);
  let started = false;
  if (!probe.ok) {
    if (!isDefaultLocal(adminUrl, 3306)) throw new Error(`MariaDB at ${adminUrl} does not answer: ${probe.error}`);
    log(`MariaDB does not answer (${probe.error}); starting it`);
    const installed = await startLocalMariadb(log);
    if (installed) await allowRootOverTcp(log);
    started = true;
    probe = await waitFor(() => mysqlTry(adminUrl), 30_000);
    if (!probe.ok) throw new Error(`MariaDB still does not answer at ${adminUrl} after starting it: ${probe.error}`);
  }
  const mysql = require('mysql2/promise');
  const { database: _ignored, ...options } = mysqlOptions(adminUrl);
  const admin = await mysql.createConnection({ ...options, connectTimeout: 5000 });
  const database = runDatabaseName();
  try {
    const [rows] = await admin.query('SHOW DATABASES');
    for (const row of rows) {
      const name = String(row.Database);
      if (isStale(name, database, isLocal(adminUrl))) await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    }
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  } finally {
    await admin.end().catch(() => {});
  }
  return { url: withDatabase(adminUrl, database), database, version: probe.version, adminUrl, started };
}

async function dropMariadbDatabase(adminUrl, database) {
  const mysql = require('mysql2/promise');
  const { database: _ignored, ...options } = mysqlOptions(adminUrl);
  const admin = await mysql.createConnection(options);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  } finally {
    await admin.end().catch(() => {});
  }
}

module.exports = {
  DEFAULT_PG_URL,
  DEFAULT_MYSQL_URL,
  DB_PREFIX,
  preparePostgres,
  dropPostgresDatabase,
  prepareMariadb,
  dropMariadbDatabase,
};
