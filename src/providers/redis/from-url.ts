import { badStoreUrl, checkWhatwgUrl, parseStoreUrl, type StoreUrlForm, type UrlOptions } from '../../core/store-url';
import { connectFailure } from '../connection-errors';
import type { OpenedStore } from '../connection-target';
import { connectionErrors } from './connection-errors';
import { STORE } from './semantics';
import { RedisStore } from './store';

/**
 * The options of a redis:// URL, all lifespan's own (node-redis reads none from the query):
 * `?prefix=app:` puts every key under that prefix. Taken off before the driver sees the URL.
 */
export const REDIS_URL_OPTIONS: UrlOptions = {
  prefix: {
    owner: 'lifespan',
    // RedisStore refuses it too, but only once the client is connected.
    check: (prefix) =>
      /[{}]/.test(prefix) ? "holds { or }, which would become the keys' cluster hash tag" : undefined,
  },
};

const REDIS_URL: StoreUrlForm = {
  store: STORE,
  what: 'the Redis URL',
  example: 'redis://[user:password@]host:6379[/db][?prefix=app:] (rediss:// for TLS)',
  authority: true,
  options: REDIS_URL_OPTIONS,
};

/** The parts of a redis:// or rediss:// URL lifespan needs. */
export function parseRedisUrl(url: string): {
  driverUrl: string;
  prefix: string;
  password: string | null;
  secrets: readonly string[];
} {
  const parsed = parseStoreUrl(url, REDIS_URL);
  checkWhatwgUrl(parsed.driverUrl, REDIS_URL);
  if (parsed.path !== '' && !/^\d+$/.test(parsed.path)) {
    throw badStoreUrl(
      STORE,
      `the database of the Redis URL is '${parsed.path}', not a number`,
      'write the database as a non-negative integer after the port: redis://host:6379/0',
    );
  }
  return {
    driverUrl: parsed.driverUrl,
    prefix: parsed.own.get('prefix') ?? '',
    password: parsed.password || null,
    secrets: parsed.secrets,
  };
}

/** Opens `redis://…` for the CLI; loads the driver only here. Connection failures fail at once (no retry loop). */
export async function openRedisUrl(url: string): Promise<OpenedStore> {
  const { driverUrl, prefix, secrets } = parseRedisUrl(url);
  const { createClient } = require('redis') as typeof import('redis');
  const client = createClient({ url: driverUrl, socket: { connectTimeout: 10_000, reconnectStrategy: false } });
  // Without a listener node-redis rethrows socket errors as uncaught; connect() reports them.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return {
      store: new RedisStore({ client, prefix }),
      secrets,
      dispose: async () => {
        client.destroy();
      },
    };
  } catch (error) {
    client.destroy();
    throw connectFailure(
      error,
      STORE,
      'the Redis server',
      'check the host, port, password and that the server is running',
      [connectionErrors],
    );
  }
}
