import type { Client } from 'cassandra-driver';
import { ErrorCodes } from '../../error-codes';
import { LifespanError, StoreError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { CassandraStore } from './store';

const STORE = 'cassandra';

/**
 * Opens `cassandra://[user:password@]host[:port][,host2…]/keyspace[?dc=datacenter1]` for the CLI.
 * The keyspace must exist: its replication is the operator's choice, not lifespan's.
 */
export async function openCassandraUrl(url: string): Promise<OpenedStore> {
  const match = /^cassandra:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?]+)\/([A-Za-z0-9_]+)(?:\?(.*))?$/.exec(url);
  if (!match?.[3] || !match[4]) {
    throw new LifespanError('CASSANDRA_URL', 'the Cassandra URL must name hosts and a keyspace', {
      store: STORE,
      hint: 'write it as cassandra://127.0.0.1:9042/my_keyspace (add ?dc=<datacenter> when not datacenter1)',
    });
  }
  const [, rawUser, rawPassword, hosts, keyspace, query] = match;
  const user = rawUser ? decoded(rawUser, 'user name') : undefined;
  const password = rawPassword ? decoded(rawPassword, 'password') : undefined;
  const dc = new URLSearchParams(query ?? '').get('dc') ?? 'datacenter1';
  const contactPoints = hosts.split(',');
  const { Client: DriverClient, auth } = require('cassandra-driver') as typeof import('cassandra-driver');
  const client: Client = new DriverClient({
    contactPoints,
    localDataCenter: dc,
    ...(user ? { authProvider: new auth.PlainTextAuthProvider(user, password ?? '') } : {}),
  });
  try {
    await client.connect();
  } catch (error) {
    await client.shutdown().catch(() => undefined);
    throw new StoreError(
      'CASSANDRA_CONNECT_FAILED',
      `cannot connect to Cassandra at ${hosts}: ${(error as Error).message}`,
      {
        store: STORE,
        cause: error,
        hint: 'check the hosts, port, datacenter (?dc=) and credentials',
      },
    );
  }
  if (!client.metadata.keyspaces[keyspace]) {
    await client.shutdown().catch(() => undefined);
    throw new StoreError(ErrorCodes.STORE_DATABASE_MISSING, `the keyspace '${keyspace}' does not exist on ${hosts}`, {
      store: STORE,
      hint: `create it first (CREATE KEYSPACE ${keyspace} WITH replication = …): its replication is your choice, not lifespan's`,
    });
  }
  return {
    store: new CassandraStore({ client, keyspace }),
    // Both spellings: output may show the URL as typed or the password as sent.
    secrets: rawPassword && password ? [...new Set([rawPassword, password])] : [],
    dispose: () => client.shutdown(),
  };
}

/** A malformed %-escape is a mistake in the URL, not a URIError to crash on. */
function decoded(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new LifespanError('CASSANDRA_URL', `the ${what} in the Cassandra URL has a malformed %-escape`, {
      store: STORE,
      hint: 'percent-encode reserved characters, e.g. %40 for @ and %25 for %',
    });
  }
}
