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
const { benchModel, BenchSession, sessionValues } = require('../lib/entities');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
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
    const repo = db.repository(BenchSession);
    const n = options.cosmosOps;
    const unit = (round, i) => Object.assign(new BenchSession(), sessionValues(i), { id: `${round}-${i}` });
    // Every run of a side writes new ids (an insert of an existing id is a conflict).
    const runsOf = { lifespan: 0, raw: 0 };
    const writes = await interleave({
      ...timing(options),
      log: ctx.log,
      prepare: (side) => {
        runsOf[side] += 1;
      },
      sides: {
        lifespan: async () => {
          for (let i = 0; i < n; i++) await repo.insert(unit(`l${runsOf.lifespan}`, i), { ttl: 600 });
        },
        raw: async () => {
          for (let i = 0; i < n; i++) {
            const v = unit(`r${runsOf.raw}`, i);
            await raw.items.create({ ...v, createdAt: v.createdAt.toISOString(), ttl: 600 });
          }
        },
      },
    });
    // Reads of the rows the last write rounds left.
    const lastLife = `l${runsOf.lifespan}`;
    const lastRaw = `r${runsOf.raw}`;
    const reads = await interleave({
      ...timing(options),
      log: ctx.log,
      sides: {
        lifespan: async () => {
          for (let i = 0; i < n; i++) if (!(await repo.get(`${lastLife}-${i}`))) throw new Error('lifespan: not found');
        },
        raw: async () => {
          for (let i = 0; i < n; i++) {
            const id = `${lastRaw}-${i}`;
            if (!(await raw.item(id, id).read()).resource) throw new Error('raw: not found');
          }
        },
      },
    });
    await db.close();
    const label = `${driverLabel('@azure/cosmos')} by hand`;
    const params = { ops: n, runs: options.runs, warmup: options.warmup };
    return [
      compareRow(writes, 'lifespan', 'raw', {
        case: 7,
        store: 'cosmos',
        measure: `insert ×${n}, per-write TTL (in-process server)`,
        referenceLabel: label,
        params,
        target: atMost(TARGET),
      }),
      compareRow(reads, 'lifespan', 'raw', {
        case: 7,
        store: 'cosmos',
        measure: `get() by key ×${n} (in-process server)`,
        referenceLabel: label,
        params,
        target: atMost(TARGET),
      }),
    ];
  } finally {
    client.dispose();
    agent.destroy();
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

module.exports = { title: 'Cosmos DB on the in-process server', run: { none } };
