/** Smoke test of the harness Cassandra node: a table default TTL is enforced on read. */
import type { Client } from 'cassandra-driver';
import { cassandraClient, createTestKeyspace, dropKeyspace } from '../harness/cassandra';
import { describeStore } from '../harness/stores';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeStore('cassandra', 'cassandra smoke', () => {
  let client: Client;
  let keyspace: string;

  beforeAll(async () => {
    client = await cassandraClient();
    keyspace = await createTestKeyspace(client, 'smoke');
  });

  afterAll(async () => {
    if (client) {
      if (keyspace) await dropKeyspace(client, keyspace);
      await client.shutdown();
    }
  });

  it('answers CQL as a 5.0 node in datacenter1', async () => {
    const row = (await client.execute('SELECT release_version, data_center FROM system.local')).first();
    expect(String(row['release_version'])).toMatch(/^5\.0\./);
    expect(row['data_center']).toBe('datacenter1');
  });

  it('expires a row of a table WITH default_time_to_live = 2', async () => {
    await client.execute(
      `CREATE TABLE ${keyspace}.sessions (id text PRIMARY KEY, payload text) WITH default_time_to_live = 2`,
    );
    const table = (
      await client.execute(
        'SELECT default_time_to_live FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?',
        [keyspace, 'sessions'],
        { prepare: true },
      )
    ).first();
    expect(table['default_time_to_live']).toBe(2);

    await client.execute(`INSERT INTO ${keyspace}.sessions (id, payload) VALUES (?, ?)`, ['s1', 'hello'], {
      prepare: true,
    });
    const written = Date.now();
    const row = (
      await client.execute(`SELECT payload, TTL(payload) AS ttl FROM ${keyspace}.sessions WHERE id = ?`, ['s1'], {
        prepare: true,
      })
    ).first();
    expect(row['payload']).toBe('hello');
    // Whole seconds: expiry is floor(write second) + 2, so the remaining TTL reads 2 or 1.
    expect(row['ttl']).toBeGreaterThanOrEqual(1);
    expect(row['ttl']).toBeLessThanOrEqual(2);

    await sleep(Math.max(0, written + 2200 - Date.now()));
    const after = await client.execute(`SELECT id FROM ${keyspace}.sessions WHERE id = ?`, ['s1'], { prepare: true });
    expect(after.rowLength).toBe(0);
  });
});
