/**
 * Issue 13, finding 1: @Key is identity, @PartitionKey is distribution. `@Key() id` with
 * `@PartitionKey() userId` is Cosmos item id `id` under partition key /userId and Cassandra
 * PRIMARY KEY (("userId"), "id"); relational stores and MongoDB keep the full key. explain() shows
 * the layout per store; a live table/container with another key layout is a conflict, never a drop.
 * The addressing runs on every store of the contract table; what a store's schema holds, and the
 * conflict over a differing layout, on the stores whose schema holds a key layout.
 */
import 'reflect-metadata';
import {
  ClusteringKey,
  Entity,
  ErrorCodes,
  Field,
  Key,
  ModelBuilder,
  PartitionKey,
  explain,
  type Model,
} from '../../src';
import { compileModel } from '../../src/providers/cassandra/compile';
import { createTable } from '../../src/providers/cassandra/ddl';
import { compileCosmos } from '../../src/providers/cosmos/compile';
import { openStore, type OpenedStore } from '../harness/open-store';
import { describeStore, type LocalStoreName } from '../harness/stores';
import { forEachStore } from './stores';

const prefix = `ks${process.pid % 10000}`;
/** The records the previous key layout stored; a refused plan or ensureCollections keeps all of them. */
const KEPT = ['kept', 'kept2'];

@Entity('orders')
class Order {
  @Key() id = '';
  @PartitionKey() userId = '';
  @Field() total = 0;
}

@Entity('orders')
class OrderClustered {
  @PartitionKey() userId = '';
  @ClusteringKey() id = '';
  @Field() total = 0;
}

class OrderFluent {
  id = '';
  userId = '';
  total = 0;
}

const model = (table = 'orders') => new ModelBuilder().entity(Order, (e) => e.toCollection(table)).build();
const order = (userId: string, id: string, total = 1) => Object.assign(new Order(), { userId, id, total });

describe('the model and each store compile the natural key shape (driver-free)', () => {
  test('@Key id + @PartitionKey userId: partition userId, clustering id — the same as @ClusteringKey and fluent', () => {
    const fluent = new ModelBuilder()
      .entity(OrderFluent, (e) =>
        e
          .toCollection('orders')
          .key((o) => o.id)
          .partitionKey((o) => o.userId)
          .field((o) => o.total),
      )
      .build();
    const clustered = new ModelBuilder().entity(OrderClustered).build();
    const expected = { partition: ['userId'], clustering: [{ member: 'id', order: 'asc' }] };
    for (const m of [model(), fluent, clustered]) expect(m.entities[0]?.key).toEqual(expected);
  });

  test('Cosmos: item id = id, partition key path /userId (no COSMOS_COMPOSITE_PARTITION_KEY)', () => {
    const schema = compileCosmos(model());
    expect(schema.layouts[0]).toMatchObject({
      idMembers: ['id'],
      partitionMember: 'userId',
      partitionKeyPath: '/userId',
    });
    expect(schema.containers[0]?.partitionKeyPath).toBe('/userId');
  });

  test('Cassandra: PRIMARY KEY (("userId"), "id"), not a composite partition key', () => {
    const table = compileModel(model(), { now: new Date(), ceiling: null }).mappings[0]!.table;
    expect(createTable(null, table)).toContain('PRIMARY KEY (("userId"), "id")');
  });

  test('explain() shows the key layout per store', () => {
    const entries = explain(model(), { stores: ['cosmos', 'cassandra', 'mongodb', 'relational'] }).entries;
    const keyOf = (store: string) => entries.find((e) => e.store === store)?.key;
    expect(keyOf('cosmos')).toBe('item id = id; partition key /userId (the value of userId)');
    expect(keyOf('cassandra')).toBe(
      'partition key (userId), clustering columns id ASC: PRIMARY KEY (("userId"), "id")',
    );
    expect(keyOf('relational')).toBe('PRIMARY KEY (userId, id): the full key');
    expect(keyOf('mongodb')).toBe('_id = { userId, id } (a sub-document, in this order)');
    expect(explain(model(), { stores: ['cosmos'] }).toText()).toContain('key: item id = id; partition key /userId');
  });
});

forEachStore('the key shape', model(`${prefix}_orders`), prefix, (_store, db) => {
  test('the same id under two users is two records; the full key addresses each; a user reads its own', async () => {
    const orders = db().repository(Order);
    await orders.insert(order('u1', 'a', 1));
    await orders.insert(order('u2', 'a', 2));
    await orders.insert(order('u1', 'b', 3));
    expect(await orders.get({ userId: 'u1', id: 'a' })).toMatchObject({ total: 1 });
    expect(await orders.get({ userId: 'u2', id: 'a' })).toMatchObject({ total: 2 });
    expect((await orders.find({ userId: 'u1' })).map((o) => o.id).sort()).toEqual(['a', 'b']);
    await expect(orders.insert(order('u1', 'a', 9))).rejects.toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY });
    await expect(orders.get('a' as never)).rejects.toMatchObject({ code: ErrorCodes.KEY_INCOMPLETE });
    expect((await db().plan()).steps).toEqual([]);
  });
});

/** The stores whose schema holds a key layout (Redis and MongoDB keep the key in the record's address). */
const KEY_LAYOUT_STORES: readonly LocalStoreName[] = ['sqlite', 'postgres', 'mariadb', 'cassandra', 'cosmos'];

for (const store of ['cassandra', 'cosmos'] as const) {
  describeStore(store, `the key layout the store holds [${store}]`, () => {
    let opened: OpenedStore | undefined;
    const table = `${prefix}_orders`;
    beforeAll(async () => {
      opened = await openStore(store, model(table), { prefix: `${prefix}_${store}_layout` });
      await opened.db.ensureCollections();
      await opened.db.repository(Order).insert(order('u2', 'a', 2));
    });
    afterAll(async () => {
      await opened?.close();
    });

    test('the store holds the layout it was asked for', async () => {
      const { raw } = opened as OpenedStore;
      if (raw.client && raw.keyspace) {
        const columns = await raw.client.execute(
          'SELECT column_name, kind FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?',
          [raw.keyspace, table],
          { prepare: true },
        );
        const kinds = Object.fromEntries(columns.rows.map((r) => [r['column_name'], r['kind']]));
        expect(kinds).toMatchObject({ userId: 'partition_key', id: 'clustering' });
      }
      if (raw.cosmos && raw.databaseId) {
        const container = raw.cosmos.client.database(raw.databaseId).container(table);
        expect((await container.read()).resource?.partitionKey?.paths).toEqual(['/userId']);
        const item = (await container.item('a', 'u2').read<Record<string, unknown>>()).resource;
        expect(item).toMatchObject({ id: 'a', userId: 'u2', total: 2 });
      }
    });
  });
}

for (const store of KEY_LAYOUT_STORES) {
  describeStore(store, `a live key layout that differs is a conflict, never a drop [${store}]`, () => {
    let opened: OpenedStore | undefined;
    const table = `${prefix}_legacy`;
    beforeAll(async () => {
      // The layout the previous version gave this declaration: (id, userId) as one partition key.
      @Entity()
      class Legacy {
        @PartitionKey() id = '';
        @PartitionKey() userId = '';
        @Field() total = 0;
      }
      const legacyModel: Model = new ModelBuilder().entity(Legacy, (e) => e.toCollection(table)).build();
      if (store === 'cosmos') {
        opened = await openStore(store, model(table), { prefix: `${prefix}_${store}_legacy` });
        const database = opened.raw.cosmos!.client.database(opened.raw.databaseId!);
        await database.containers.createIfNotExists({ id: table, partitionKey: { paths: ['/id'] } });
        for (const id of KEPT) await database.container(table).items.create({ id, userId: 'u1', total: 1 });
        return;
      }
      const legacy = await openStore(store, legacyModel, { prefix: `${prefix}_${store}_legacy` });
      await legacy.db.ensureCollections();
      for (const id of KEPT) {
        await legacy.db.repository(Legacy).insert(Object.assign(new Legacy(), { id, userId: 'u1', total: 1 }));
      }
      await legacy.db.close();
      // Reopen the same database / keyspace with today's model, without dropping anything.
      const { CassandraStore } = await import('../../src/providers/cassandra');
      const { RelationalStore } = await import('../../src/providers/relational');
      const { connect } = await import('../../src');
      const db = legacy.raw.client
        ? await connect(model(table), new CassandraStore({ client: legacy.raw.client, keyspace: legacy.raw.keyspace! }))
        : await connect(
            model(table),
            new RelationalStore({ knex: legacy.raw.knex!, ttl: 'emulate', logger: { warn: () => undefined } }),
          );
      opened = { ...legacy, db };
    });
    afterAll(async () => {
      await opened?.close();
    });

    /** The ids the table / container holds now, read past lifespan (no expiry filter, no model). */
    async function storedIds(): Promise<string[]> {
      const { raw } = opened as OpenedStore;
      if (raw.knex) {
        const [count] = await raw.knex(table).count({ n: '*' });
        const ids = (await raw.knex(table).select('id')).map((r: { id: string }) => r.id);
        expect(Number(count?.n)).toBe(ids.length);
        return ids.sort();
      }
      if (raw.client) {
        const rows = await raw.client.execute(`SELECT "id" FROM "${raw.keyspace}"."${table}"`);
        return rows.rows.map((r) => String(r['id'])).sort();
      }
      const container = raw.cosmos!.client.database(raw.databaseId!).container(table);
      const { resources } = await container.items.query<{ id: string }>('SELECT c.id FROM c').fetchAll();
      return resources.map((r) => r.id).sort();
    }

    test('plan() reports a conflict and no destructive step; ensureCollections() refuses; the data stays', async () => {
      const { db } = opened as OpenedStore;
      expect(await storedIds()).toEqual(KEPT);
      const plan = await db.plan();
      const classes = plan.steps.map((s) => s.class);
      expect(classes).toContain('conflict');
      expect(classes).not.toContain('destructive');
      expect(plan.steps.find((s) => s.class === 'conflict')?.summary).toMatch(/key/);
      expect(await storedIds()).toEqual(KEPT);
      await expect(db.ensureCollections()).rejects.toMatchObject({ code: ErrorCodes.PLAN_CONFLICT });
      // Every record the previous layout stored is still there, not only one of them.
      expect(await storedIds()).toEqual(KEPT);
    });
  });
}
