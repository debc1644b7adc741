/**
 * Cassandra helpers for test files. The node itself is started once per run by globalSetup
 * (test/servers/cassandra/node.js) and announced in LIFESPAN_CASSANDRA_CONTACT.
 */
import { randomBytes } from 'node:crypto';
import { Client, type ClientOptions } from 'cassandra-driver';
import { requireStore } from './stores';

export const CASSANDRA_DATACENTER = 'datacenter1';

/** host:port of the harness node (LIFESPAN_CASSANDRA_CONTACT, default 127.0.0.1:9042). */
export function cassandraContact(): string {
  return process.env['LIFESPAN_CASSANDRA_CONTACT'] || '127.0.0.1:9042';
}

/**
 * A connected cassandra-driver client for the harness node (localDataCenter 'datacenter1').
 * Throws, with the reason, when the Cassandra store is not up. Call `client.shutdown()` in afterAll.
 */
export async function cassandraClient(options: Partial<ClientOptions> = {}): Promise<Client> {
  requireStore('cassandra');
  const client = new Client({
    contactPoints: [cassandraContact()],
    localDataCenter: CASSANDRA_DATACENTER,
    socketOptions: { connectTimeout: 10_000, readTimeout: 30_000 },
    ...options,
  });
  await client.connect();
  return client;
}

/**
 * Creates a keyspace with a unique name (`<prefix>_<time>_<random>`, lower case, at most 48 chars)
 * with SimpleStrategy and replication factor 1, and returns its name. Drop it with dropKeyspace().
 */
export async function createTestKeyspace(client: Client, prefix: string): Promise<string> {
  const clean =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .replace(/^[^a-z]+/, '')
      .slice(0, 24) || 'ks';
  const name = `${clean}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await client.execute(
    `CREATE KEYSPACE ${name} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
  );
  return name;
}

/** Drops a keyspace made by createTestKeyspace (no snapshot is taken: auto_snapshot is off). */
export async function dropKeyspace(client: Client, name: string): Promise<void> {
  await client.execute(`DROP KEYSPACE IF EXISTS ${name}`);
}
