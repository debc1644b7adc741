import type { Client } from 'cassandra-driver';
import { ErrorCodes } from '../../error-codes';
import { badStoreUrl, parseStoreUrl, type StoreUrlForm, type UrlOptions } from '../../core/store-url';
import { StoreError } from '../../errors';
import { connectFailure } from '../connection-errors';
import type { OpenedStore } from '../connection-target';
import { connectionErrors } from './connection-errors';
import { CassandraStore } from './store';

const STORE = 'cassandra';

/** The options of a cassandra:// URL, all lifespan's own: `?dc=` is the driver's localDataCenter. */
export const CASSANDRA_URL_OPTIONS: UrlOptions = {
  dc: { owner: 'lifespan' },
};

const CASSANDRA_URL: StoreUrlForm = {
  store: STORE,
  what: 'the Cassandra URL',
  example: 'cassandra://127.0.0.1:9042/my_keyspace (add ?dc=<datacenter> when not datacenter1)',
  authority: true,
  options: CASSANDRA_URL_OPTIONS,
};

/**
 * Opens `cassandra://[user:password@]host[:port][,host2…]/keyspace[?dc=datacenter1]` for the CLI.
 * The keyspace must exist: its replication is the operator's choice, not lifespan's.
 */
export async function openCassandraUrl(url: string): Promise<OpenedStore> {
  const parsed = parseStoreUrl(url, CASSANDRA_URL);
  const { hosts, path: keyspace, user, password } = parsed;
  if (hosts === '' || !/^[A-Za-z0-9_]+$/.test(keyspace)) {
    throw badStoreUrl(
      STORE,
      'the Cassandra URL must name hosts and a keyspace',
      `write it as ${CASSANDRA_URL.example}`,
    );
  }
  const dc = parsed.own.get('dc') ?? 'datacenter1';
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
    throw connectFailure(
      error,
      STORE,
      `Cassandra at ${hosts}`,
      'check the hosts, port, datacenter (?dc=) and credentials',
      [connectionErrors],
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
    secrets: parsed.secrets,
    dispose: () => client.shutdown(),
  };
}
