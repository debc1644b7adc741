'use strict';
/**
 * Case 7: Azure Cosmos DB on the in-process protocol server (@vercel/cosmosdb-server): insert with
 * a per-write TTL and get by key through lifespan, against the same operations sent with
 * @azure/cosmos by hand (items.create with `ttl`, item(id, pk).read()). Ratio only: the server is
 * a JavaScript re-implementation in this process, not the service, so its absolute times say
 * nothing about Cosmos DB; what the ratio shows is lifespan's cost around the SDK.
 */
const https = require('node:https');
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession } = require('../lib/entities');
const { insertThenGet, insertGetRows } = require('../lib/insert-get');
const { driverLabel } = require('../lib/versions');

const TARGET = 1.1;

async function none(ctx) {
  const { options } = ctx;
  const { CosmosClient } = require('@azure/cosmos');
  const { createHttpsServer } = require('@vercel/cosmosdb-server');
  const server = createHttpsServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The server's bundled certificate expired in 2021: only this client skips the check.
  const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true });
  const client = new CosmosClient({ endpoint: `https://127.0.0.1:${server.address().port}`, key: 'bench', agent });
  try {
    const { database } = await client.databases.createIfNotExists({ id: 'bench' });
    const { CosmosStore } = require('../../dist/providers/cosmos');
    const db = await lifespan.connect(benchModel(), new CosmosStore({ database }));
    await db.ensureCollections();
    const { container: raw } = await database.containers.createIfNotExists({
      id: 'raw_sessions',
      partitionKey: { paths: ['/id'] },
      defaultTtl: 3600,
    });
    const n = options.cosmosOps;
    const results = await insertThenGet({
      ctx,
      n,
      repo: db.repository(BenchSession),
      rawInsert: (v) => raw.items.create({ ...v, createdAt: v.createdAt.toISOString(), ttl: 600 }),
      rawGet: async (id) => Boolean((await raw.item(id, id).read()).resource),
    });
    await db.close();
    return insertGetRows(results, {
      ctx,
      n,
      caseNo: 7,
      store: 'cosmos',
      label: `${driverLabel('@azure/cosmos')} by hand`,
      target: TARGET,
      insertMeasure: `insert ×${n}, per-write TTL (in-process server)`,
      getMeasure: `get() by key ×${n} (in-process server)`,
    });
  } finally {
    client.dispose();
    agent.destroy();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

module.exports = { title: 'Cosmos DB on the in-process server', run: { none } };
