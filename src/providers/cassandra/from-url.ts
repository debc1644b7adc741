import type { Client } from 'cassandra-driver';
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
  const [, user, password, hosts, keyspace, query] = match;
  const dc = new URLSearchParams(query ?? '').get('dc') ?? 'datacenter1';
  const contactPoints = hosts.split(',');
  const { Client: DriverClient, auth } = require('cassandra-driver') as typeof import('cassandra-driver');
  const client: Client = new DriverClient({
    contactPoints,
    localDataCenter: dc,
    ...(user
      ? { authProvider: new auth.PlainTextAuthProvider(decodeURIComponent(user), decodeURIComponent(password ?? '')) }
      : {}),
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
  return {
    store: new CassandraStore({ client, keyspace }),
    secrets: password ? [decodeURIComponent(password)] : [],
    dispose: () => client.shutdown(),
  };
}
