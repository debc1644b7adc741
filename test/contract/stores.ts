/**
 * The store table of the contract suite: one entry per deployment of a store, its capabilities
 * as flags (as Kysely's dialect adapters do: the store's own from its descriptor, the deployment's
 * here; ./capabilities.ts), and how to open a model on it. The suites assert the documented
 * behaviour where a flag is off (e.g. UnsupportedTtlError).
 */
import { MongoClient } from 'mongodb';
import type { Client } from 'cassandra-driver';
import type { Knex } from 'knex';
import { connect, type Model, type Store, type StoreContext } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { CosmosStore } from '../../src/providers/cosmos';
import { MongoStore, type MongoDbLike } from '../../src/providers/mongodb';
import { RedisStore } from '../../src/providers/redis';
import { RelationalStore } from '../../src/providers/relational';
import { liveCosmosClient } from '../harness/cosmos';
import { describeLive, describeStore, storeInfo, type LocalStoreName } from '../harness/stores';
import { capabilitiesOf, type Capabilities, type DeploymentCapabilities } from './capabilities';
import { knexFor } from '../harness/relational';
import { MemoryDb } from '../mongodb/fake/memory-db';
import { openStore, type OpenedStore } from '../harness/open-store';

export type { Capabilities };

export interface ContractStore {
  readonly name: string;
  readonly can: Capabilities;
  /** Registers the describe block: a local store that must be up, or a live one that needs its env. */
  describe(title: string, fn: () => void): void;
  open(model: Model, prefix: string): Promise<OpenedContract>;
}

export interface OpenedContract {
  readonly db: StoreContext;
  /** The database under the store, for a test that changes it by hand (a unique index lifespan did not declare). */
  readonly raw?: { readonly knex?: Knex; readonly mongo?: MongoDbLike };
  /** Another model on the same database (a later version of the app), closed by close(). */
  sibling?(model: Model): Promise<StoreContext>;
  close(): Promise<void>;
}

/** The relational store's deployments: a purge, not the server, removes what is due. */
const relational: DeploymentCapabilities = { realTimeExpiry: false, expiryObservedBy: 'purge' };

/**
 * An opened store whose siblings (other models on the same database) are opened with `store()` and
 * closed before `release()` frees the database.
 */
function withSiblings(
  db: StoreContext,
  store: () => Store,
  release: () => Promise<void>,
  raw?: OpenedContract['raw'],
): OpenedContract {
  const siblings: StoreContext[] = [];
  return {
    db,
    ...(raw ? { raw } : {}),
    async sibling(other) {
      const sibling = await connect(other, store());
      siblings.push(sibling);
      return sibling;
    },
    async close() {
      for (const sibling of siblings) await sibling.close();
      await release();
    },
  };
}

/** A deployment the test bed starts (test/harness/stores.ts), of the registry store it names. */
function local(name: LocalStoreName, deployment: DeploymentCapabilities): ContractStore {
  return {
    name,
    can: capabilitiesOf(storeInfo(name).store, deployment),
    describe: (title, fn) => describeStore(name, `${title} [${name}]`, fn),
    async open(model, prefix) {
      const opened = await openStore(name, model, { prefix: `${prefix}_${name}` });
      const knex = opened.raw.knex;
      return withSiblings(
        opened.db,
        () => sameDatabase(name, opened.raw),
        () => opened.close(),
        knex ? { knex } : undefined,
      );
    },
  };
}

/** A store on the database an opened store uses (for a second model version on the same tables). */
function sameDatabase(name: LocalStoreName, raw: OpenedStore['raw']): Store {
  switch (name) {
    case 'sqlite':
    case 'postgres':
    case 'mariadb':
      return new RelationalStore({ knex: raw.knex as Knex, ttl: 'emulate', logger: { warn: () => undefined } });
    case 'cassandra':
      return new CassandraStore({ client: raw.client as Client, keyspace: raw.keyspace as string });
    case 'cosmos':
      return new CosmosStore({ database: raw.cosmos!.client.database(raw.databaseId as string) });
    case 'redis':
      return new RedisStore({ client: raw.redis!, prefix: raw.prefix as string });
    case 'cassandra-cluster':
      throw new Error('the Cassandra cluster is not in the contract table (test/cassandra/cluster.live.test.ts)');
    case 'redis-cluster':
      return new RedisStore({ client: raw.redisCluster!, prefix: raw.prefix as string });
  }
}

const cosmos: DeploymentCapabilities = {
  // The in-process protocol server stores ttl but never expires anything (docs/testing.md); a real account does.
  realTimeExpiry: false,
  expiryObservedBy: 'none',
};

const redis: DeploymentCapabilities = { realTimeExpiry: true, expiryObservedBy: 'server' };

const mongodb = capabilitiesOf('mongodb', {
  // The fake's clock moves only when a test moves it (clocked stores below).
  realTimeExpiry: false,
  expiryObservedBy: 'monitor',
});

/** What the live Cosmos DB entry is held to: as the protocol server (not a deployment of its own yet). */
const cosmosLive = capabilitiesOf('cosmos', cosmos);

export const CONTRACT_STORES: readonly ContractStore[] = [
  local('sqlite', relational),
  local('postgres', relational),
  local('mariadb', relational),
  local('cassandra', { realTimeExpiry: true, expiryObservedBy: 'server' }),
  local('cosmos', cosmos),
  local('redis', redis),
  // The same store on the test bed's Redis Cluster (3 primaries + 3 replicas).
  local('redis-cluster', { ...redis, unitOfWorkInOnePartition: true }),
  {
    name: 'mongodb-fake',
    can: mongodb,
    // The evaluating fake (test/mongodb/fake) needs no server: always runs.
    describe: (title, fn) => describe(`${title} [mongodb-fake]`, fn),
    async open(model) {
      const memory = new MemoryDb(new Date());
      const db = await connect(model, new MongoStore({ db: memory }));
      return {
        db,
        raw: { mongo: memory },
        sibling: (other) => connect(other, new MongoStore({ db: memory })),
        close: () => db.close(),
      };
    },
  },
  {
    name: 'mongodb-live',
    can: mongodb,
    describe: (title, fn) => describeLive('mongodb', ['MONGODB_URI'], () => describe(title, fn)),
    async open(model, prefix) {
      const client = await MongoClient.connect(process.env['MONGODB_URI'] as string);
      const database = client.db(`${prefix}_${process.pid}`);
      const db = await connect(model, new MongoStore({ db: database }));
      return withSiblings(
        db,
        () => new MongoStore({ db: database }),
        async () => {
          await db.close();
          await database.dropDatabase();
          await client.close();
        },
        { mongo: database },
      );
    },
  },
  {
    name: 'cosmos-live',
    can: cosmosLive,
    describe: (title, fn) => describeLive('cosmos-live', ['COSMOS_ENDPOINT', 'COSMOS_KEY'], () => describe(title, fn)),
    async open(model, prefix) {
      const client = liveCosmosClient();
      const { database } = await client.databases.createIfNotExists({ id: `${prefix}_${process.pid}` });
      const db = await connect(model, new CosmosStore({ database }));
      return withSiblings(
        db,
        () => new CosmosStore({ database }),
        async () => {
          await db.close();
          await database.delete();
          client.dispose();
        },
      );
    },
  },
];

/** Runs `fn` once per store of the table (or of `only`), each with its own opened context (shared by the block's tests). */
export function forEachStore(
  title: string,
  model: Model,
  prefix: string,
  fn: (store: ContractStore, db: () => StoreContext, raw: () => OpenedContract['raw']) => void,
  /** Only these stores (by name): a case the others cannot set up. */
  only?: readonly string[],
): void {
  for (const store of CONTRACT_STORES) {
    if (only && !only.includes(store.name)) continue;
    store.describe(title, () => {
      let opened: OpenedContract | undefined;
      beforeAll(async () => {
        opened = await store.open(model, prefix);
        await opened.db.ensureCollections();
      });
      afterAll(async () => {
        await opened?.close();
      });
      fn(
        store,
        () => {
          if (!opened) throw new Error(`${store.name} did not open`);
          return opened.db;
        },
        () => opened?.raw,
      );
    });
  }
}

/**
 * `test`, or `test.failing` for the stores named in `drifting`: a contract the listed stores do not
 * meet yet (a drift found by the suite, reported, to be fixed in src/). The failing case stays
 * visible, and jest fails it once the store starts to pass, so the fix must also remove the store
 * from the list.
 */
export function testUnlessDrifting(store: ContractStore, drifting: readonly string[]): jest.It {
  return drifting.includes(store.name) ? test.failing : test;
}

// findPage / iterate / deleteMany (issue 26): stores whose "now" a test sets.

/** A settable instant: the relational store's injected clock, the MongoDB fake's `now`. */
export interface ContractClock {
  readonly nowMs: number;
  at(ms: number): void;
}

export interface ClockedContract {
  readonly db: StoreContext;
  readonly clock: ContractClock;
  readonly raw: { readonly knex?: Knex; readonly memory?: MemoryDb };
  close(): Promise<void>;
}

interface ClockedStore {
  readonly name: string;
  describe(title: string, fn: () => void): void;
  open(model: Model): Promise<ClockedContract>;
}

const START_MS = Date.UTC(2030, 0, 1, 12, 0, 0);

function clockedRelational(name: 'sqlite' | 'postgres' | 'mariadb'): ClockedStore {
  return {
    name,
    describe: (title, fn) => describeStore(name, `${title} [${name}]`, fn),
    async open(model) {
      const knex = knexFor(name);
      for (const e of model.entities) await knex.schema.dropTableIfExists(e.collection);
      let nowMs = START_MS;
      const clock: ContractClock = {
        get nowMs() {
          return nowMs;
        },
        at: (ms) => void (nowMs = ms),
      };
      const store = new RelationalStore({ knex, ttl: 'emulate', clock: () => new Date(nowMs), logger: QUIET });
      const db = await connect(model, store);
      return {
        db,
        clock,
        raw: { knex },
        async close() {
          await db.close();
          for (const e of model.entities) await knex.schema.dropTableIfExists(e.collection);
          await knex.destroy();
        },
      };
    },
  };
}

const QUIET = { warn: () => undefined };

const CLOCKED_STORES: readonly ClockedStore[] = [
  clockedRelational('sqlite'),
  clockedRelational('postgres'),
  clockedRelational('mariadb'),
  {
    name: 'mongodb-fake',
    describe: (title, fn) => describe(`${title} [mongodb-fake]`, fn),
    async open(model) {
      const memory = new MemoryDb(new Date(START_MS));
      const clock: ContractClock = {
        get nowMs() {
          return memory.now.getTime();
        },
        at: (ms) => void (memory.now = new Date(ms)),
      };
      const db = await connect(model, new MongoStore({ db: memory }));
      return { db, clock, raw: { memory }, close: () => db.close() };
    },
  },
];

/** Runs `fn` on every store whose clock a test controls, each with its own opened context. */
export function forEachClockedStore(
  title: string,
  model: Model,
  fn: (store: ClockedStore, opened: () => ClockedContract) => void,
): void {
  for (const store of CLOCKED_STORES) {
    store.describe(title, () => {
      let opened: ClockedContract | undefined;
      beforeAll(async () => {
        opened = await store.open(model);
        await opened.db.ensureCollections();
      });
      afterAll(async () => {
        await opened?.close();
      });
      fn(store, () => {
        if (!opened) throw new Error(`${store.name} did not open`);
        return opened;
      });
    });
  }
}
