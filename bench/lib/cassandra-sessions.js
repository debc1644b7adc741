'use strict';
/** The Cassandra side of the read cases: the bench model connected on the run's keyspace, `n` live sessions written by hand. */
const lifespan = require('./lifespan');
const { benchModel, sessionValues } = require('./entities');
const conn = require('./connections');
const SQL = require('./reference-sql');

/** Connects, creates the tables and inserts sessions 0..n-1 with a TTL of an hour; returns { client, db, cql }. */
async function openCassandraSessions(info, n) {
  const client = await conn.cassandraClient(info);
  await conn.createKeyspace(client, info.keyspace);
  const { CassandraStore } = lifespan.cassandra();
  const db = await lifespan.connect(benchModel(), new CassandraStore({ client, keyspace: info.keyspace }));
  await db.ensureCollections();
  const cql = SQL.cassandra(info.keyspace);
  const { concurrent } = require('cassandra-driver');
  const params = Array.from({ length: n }, (_, i) => {
    const v = sessionValues(i);
    return [v.id, v.owner, v.payload, v.hits, new Date(), 3600];
  });
  await concurrent.executeConcurrent(client, cql.insert, params, {
    concurrencyLevel: 64,
    executionOptions: { prepare: true },
  });
  return { client, db, cql };
}

module.exports = { openCassandraSessions };
