'use strict';
/**
 * Connections of a job: a knex instance per relational store (what lifespan and "knex by hand"
 * use) and the raw drivers the references use. SQLite: lifespan, knex and the raw reference share
 * knex's single better-sqlite3 connection, so every side runs on the same handle and pragmas.
 */
const path = require('node:path');
const { URL } = require('node:url');
const knexLib = require('knex');

/** The pragmas every SQLite handle of the benchmark gets, lifespan's and the peers' alike. */
function sqlitePragmas(db, mode) {
  if (mode !== 'memory') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
}

function sqliteFile(info, name) {
  return info.mode === 'memory' ? ':memory:' : path.join(info.dir, `${name}.db`);
}

function sqliteKnex(info, name, filename = sqliteFile(info, name)) {
  return knexLib({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      afterCreate(db, done) {
        sqlitePragmas(db, info.mode);
        done(null, db);
      },
    },
  });
}

/** knex's better-sqlite3 connection (knex keeps one): the handle lifespan runs on too. */
async function sqliteHandle(knex) {
  const db = await knex.client.acquireConnection();
  await knex.client.releaseConnection(db);
  return db;
}

function pgKnex(info) {
  return knexLib({ client: 'pg', connection: info.url, pool: { min: 1, max: 4 } });
}

async function rawPg(info) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: info.url });
  await client.connect();
  return client;
}

function mysqlKnex(info) {
  return knexLib({ client: 'mysql2', connection: info.url, pool: { min: 1, max: 4 } });
}

/** A mysql2 connection with a promise per prepared execution (the callback API, without the promise wrapper's extras). */
async function rawMysql(info) {
  const mysql = require('mysql2');
  const u = new URL(info.url);
  const connection = mysql.createConnection({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password || ''),
    database: decodeURIComponent(u.pathname.slice(1)),
  });
  const call = (method) => (sql, values) =>
    new Promise((resolve, reject) =>
      connection[method](sql, values, (error, result) => (error ? reject(error) : resolve(result))),
    );
  return { connection, execute: call('execute'), query: call('query'), end: () => connection.end() };
}

/** PostgreSQL and MariaDB jobs share the run's database: each starts without the tables of the one before. */
async function dropTables(knex, tables) {
  for (const table of tables) await knex.schema.dropTableIfExists(table);
}

async function cassandraClient(info) {
  const { Client } = require('cassandra-driver');
  const client = new Client({
    contactPoints: [info.contact],
    localDataCenter: 'datacenter1',
    socketOptions: { readTimeout: 60000 },
  });
  await client.connect();
  return client;
}

async function createKeyspace(client, keyspace) {
  await client.execute(
    `CREATE KEYSPACE IF NOT EXISTS ${keyspace} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
  );
}

/** Every table the cases create in the shared PostgreSQL / MariaDB database. */
const BENCH_TABLES = ['bench_sessions', 'plain_sessions', 'bench_purge', 'bench_purge_template'];

module.exports = {
  BENCH_TABLES,
  sqlitePragmas,
  sqliteFile,
  sqliteKnex,
  sqliteHandle,
  pgKnex,
  rawPg,
  mysqlKnex,
  rawMysql,
  dropTables,
  cassandraClient,
  createKeyspace,
};
