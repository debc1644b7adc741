/** Models and helpers shared by the Cassandra tests (each test file opens its own keyspace). */
import 'reflect-metadata';
import type { Client } from 'cassandra-driver';
import { ModelBuilder, connect, type Model, type StoreContext } from '../../src';
import { CassandraStore, type CassandraStoreOptions } from '../../src/providers/cassandra';
import { cassandraClient, createTestKeyspace, dropKeyspace } from '../harness/cassandra';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function open(
  client: Client,
  keyspace: string,
  model: Model,
  extra: Partial<CassandraStoreOptions> = {},
): Promise<StoreContext> {
  return connect(model, new CassandraStore({ client, keyspace, ...extra }));
}

/** default_time_to_live of a table, as the node reports it. */
export async function liveDefaultTtl(client: Client, keyspace: string, table: string): Promise<number | undefined> {
  const result = await client.execute(
    'SELECT default_time_to_live FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?',
    [keyspace, table],
    { prepare: true },
  );
  const row = result.rows[0];
  return row ? Number(row['default_time_to_live']) : undefined;
}

/** TTL() of one column of one row, straight from the node. */
export async function cellTtl(
  client: Client,
  keyspace: string,
  table: string,
  keyColumn: string,
  key: unknown,
  column: string,
): Promise<number | null | undefined> {
  const result = await client.execute(
    `SELECT TTL("${column}") AS t FROM "${keyspace}"."${table}" WHERE "${keyColumn}" = ?`,
    [key],
    { prepare: true },
  );
  const row = result.rows[0];
  return row ? (row['t'] as number | null) : undefined;
}

export function build(configure: (b: ModelBuilder) => ModelBuilder): Model {
  return configure(new ModelBuilder()).build();
}

/**
 * The live suites' set-up: a client on the harness node and a keyspace of the suite's own,
 * dropped (and the client shut down) after the suite. `opened` runs inside beforeAll.
 */
export function useTestKeyspace(prefix: string, opened: (live: { client: Client; keyspace: string }) => unknown): void {
  let live: { client: Client; keyspace?: string } | undefined;
  beforeAll(async () => {
    live = { client: await cassandraClient() };
    live.keyspace = await createTestKeyspace(live.client, prefix);
    await opened({ client: live.client, keyspace: live.keyspace });
  });
  afterAll(async () => {
    if (!live) return;
    if (live.keyspace) await dropKeyspace(live.client, live.keyspace);
    await live.client.shutdown();
  });
}
