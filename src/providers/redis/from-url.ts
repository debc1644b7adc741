import { badStoreUrl, parseStoreUrl, type StoreUrlForm, type UrlOptions } from '../../core/store-url';
import type { OpenedStore } from '../connection-target';
import { STORE } from './semantics';
import { RedisStore } from './store';

/**
 * The options of a redis:// URL, all lifespan's own (node-redis reads none from the query):
 * `?prefix=app:` puts every key under that prefix. Taken off before the driver sees the URL.
 */
export const REDIS_URL_OPTIONS: UrlOptions = {
  prefix: { owner: 'lifespan' },
};

const REDIS_URL: StoreUrlForm = {
  store: STORE,
  what: 'the Redis URL',
  example: 'redis://[user:password@]host:6379[/db][?prefix=app:] (rediss:// for TLS)',
  authority: true,
  options: REDIS_URL_OPTIONS,
};

/** The parts of a redis:// or rediss:// URL lifespan needs. */
export function parseRedisUrl(url: string): { driverUrl: string; prefix: string; password: string | null } {
  const parsed = parseStoreUrl(url, REDIS_URL);
  try {
    new URL(parsed.driverUrl);
  } catch {
    throw badStoreUrl(STORE, `${REDIS_URL.what} does not parse`, `write it as ${REDIS_URL.example}`);
  }
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
  };
}

/** Opens `redis://…` for the CLI; loads the driver only here. Connection failures fail at once (no retry loop). */
export async function openRedisUrl(url: string): Promise<OpenedStore> {
  const { driverUrl, prefix, password } = parseRedisUrl(url);
  const { createClient } = require('redis') as typeof import('redis');
  const client = createClient({ url: driverUrl, socket: { connectTimeout: 10_000, reconnectStrategy: false } });
  // Without a listener node-redis rethrows socket errors as uncaught; connect() reports them.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw error;
  }
  return {
    store: new RedisStore({ client, prefix }),
    secrets: password ? [password] : [],
    dispose: async () => {
      client.destroy();
    },
  };
}
