const { RelationalStore } = require('lifespan-orm/relational');
const knex = require('knex');
const { model } = require('./models.cjs');

// A config that needs production settings, as one loaded in CI without them would fail.
if (process.env.FIXTURE_CONFIG_NEEDS_ENV) throw new Error('PRODUCTION_DATABASE_URL is not set');

// A second store when the test started the local Cosmos server (test/harness/cosmos.ts): its
// certificate is self-signed, so this client alone skips the certificate check.
function cosmos() {
  const { CosmosClient } = require('@azure/cosmos');
  const { CosmosStore } = require('lifespan-orm/cosmos');
  const https = require('node:https');
  const agent = new https.Agent({ rejectUnauthorized: false });
  const key = process.env.COSMOS_KEY;
  const client = new CosmosClient({
    endpoint: process.env.COSMOS_ENDPOINT,
    key,
    agent,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  const store = new CosmosStore({ database: client.database(process.env.FIXTURE_COSMOS_DB) });
  const dispose = async () => {
    client.dispose();
    agent.destroy();
  };
  return { store, secrets: [key], dispose };
}

// A plain object, as a CommonJS project without types writes it (the ESM project uses defineConfig).
module.exports = {
  model,
  stores: {
    // FIXTURE_SHAPE picks what the factory returns, to check each accepted shape and a wrong one.
    main: () => {
      const db = knex({
        client: 'better-sqlite3',
        connection: { filename: process.env.FIXTURE_DB ?? ':memory:' },
        useNullAsDefault: true,
      });
      const store = new RelationalStore({ knex: db, ttl: 'emulate' });
      const secrets = ['cjs-fixture-SECRET'];
      switch (process.env.FIXTURE_SHAPE) {
        case 'store':
          return store;
        case 'store-secrets':
          return { store, secrets };
        case 'store-dispose':
          return { store, dispose: () => db.destroy() };
        case 'wrong':
          return { db: store };
        case 'missing-driver':
          return knex({ client: 'oracledb', connection: {} });
        case 'throws':
          throw new Error(
            process.env.FIXTURE_THROW ?? 'cannot reach postgres://app:factory-PW-secret@db.internal:5432/app',
          );
        case 'dispose-throws':
          return {
            store,
            secrets,
            dispose: async () => {
              await db.destroy();
              throw new Error('dispose failed with cjs-fixture-SECRET');
            },
          };
        default:
          return { store, secrets, dispose: () => db.destroy() };
      }
    },
    ...(process.env.FIXTURE_COSMOS_DB ? { cosmos } : {}),
  },
};
