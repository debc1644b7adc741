/**
 * Opens one model on any local store of the test bed, for suites that pin the same behaviour on
 * every store: SQLite, PostgreSQL, MariaDB (emulated or ignored TTL), the real Cassandra node and
 * the in-process Cosmos server. Call inside describeStore(name, ...); close() in afterAll.
 */
import type { Client } from 'cassandra-driver';
import type { Knex } from 'knex';
import { connect, type Model, type StoreContext } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { CosmosStore } from '../../src/providers/cosmos';
import { RedisStore } from '../../src/providers/redis';
import { RelationalStore } from '../../src/providers/relational';
import { cassandraClient, createTestKeyspace, dropKeyspace } from './cassandra';
import { startCosmosServer, type LocalCosmos } from './cosmos';
import { knexFor } from './relational';
import { deleteKeys, redisClient, testPrefix, type TestRedisClient } from './redis';
import { deleteClusterKeys, redisClusterClient, type TestRedisCluster } from './redis-cluster';
import type { LocalStoreName } from './stores';

export interface OpenedStore {
  readonly db: StoreContext;
  /** Raw access for assertions about what the store itself holds. */
  readonly raw: {
    knex?: Knex;
    client?: Client;
    keyspace?: string;
    cosmos?: LocalCosmos;
    databaseId?: string;
    redis?: TestRedisClient;
    redisCluster?: TestRedisCluster;
    prefix?: string;
  };
  close(): Promise<void>;
}

export async function openStore(
  store: LocalStoreName,
  model: Model,
  options: { relationalTtl?: 'emulate' | 'ignore'; prefix: string },
): Promise<OpenedStore> {
  switch (store) {
    case 'sqlite':
    case 'postgres':
    case 'mariadb': {
      const knex = knexFor(store);
      for (const e of model.entities) await knex.schema.dropTableIfExists(e.collection);
      const db = await connect(
        model,
        new RelationalStore({ knex, ttl: options.relationalTtl ?? 'emulate', logger: { warn: () => undefined } }),
      );
      return {
        db,
        raw: { knex },
        async close() {
          await db.close();
          for (const e of model.entities) await knex.schema.dropTableIfExists(e.collection);
          await knex.destroy();
        },
      };
    }
    case 'cassandra': {
      const client = await cassandraClient();
      const keyspace = await createTestKeyspace(client, options.prefix);
      const db = await connect(model, new CassandraStore({ client, keyspace }));
      return {
        db,
        raw: { client, keyspace },
        async close() {
          await db.close();
          await dropKeyspace(client, keyspace);
          await client.shutdown();
        },
      };
    }
    case 'cosmos': {
      const cosmos = await startCosmosServer();
      const databaseId = options.prefix;
      const { database } = await cosmos.client.databases.createIfNotExists({ id: databaseId });
      const db = await connect(model, new CosmosStore({ database }));
      return {
        db,
        raw: { cosmos, databaseId },
        async close() {
          await db.close();
          await cosmos.close();
        },
      };
    }
    case 'redis': {
      const client = await redisClient();
      const prefix = testPrefix(options.prefix);
      const db = await connect(model, new RedisStore({ client, prefix }));
      return {
        db,
        raw: { redis: client, prefix },
        async close() {
          await db.close();
          await deleteKeys(client, prefix);
          client.destroy();
        },
      };
    }
    case 'cassandra-cluster':
      throw new Error('the Cassandra cluster is opened by its own suite (test/cassandra/cluster.live.test.ts)');
    case 'redis-cluster': {
      const cluster = await redisClusterClient();
      const prefix = testPrefix(options.prefix);
      const db = await connect(model, new RedisStore({ client: cluster, prefix }));
      return {
        db,
        raw: { redisCluster: cluster, prefix },
        async close() {
          await db.close();
          await deleteClusterKeys(cluster, prefix);
          cluster.destroy();
        },
      };
    }
  }
}
