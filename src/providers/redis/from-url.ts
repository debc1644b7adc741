import { LifespanError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { STORE } from './semantics';
import { RedisStore } from './store';

/** lifespan's own URL option: `redis://host:6379/0?prefix=app:` (removed before the driver sees the URL). */
const PREFIX = 'prefix';

/** The parts of a redis:// or rediss:// URL lifespan needs. */
export function parseRedisUrl(url: string): { driverUrl: string; prefix: string; password: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LifespanError('REDIS_BAD_URL', 'the Redis URL does not parse', {
      store: STORE,
      hint: 'write it as redis://[user:password@]host:6379[/db][?prefix=app:] (rediss:// for TLS)',
    });
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) {
    throw new LifespanError('REDIS_BAD_URL', `the database of the Redis URL is '${db}', not a number`, {
      store: STORE,
      hint: 'write the database as a non-negative integer after the port: redis://host:6379/0',
    });
  }
  const prefix = parsed.searchParams.get(PREFIX) ?? '';
  parsed.searchParams.delete(PREFIX);
  return {
    driverUrl: parsed.toString(),
    prefix,
    password: parsed.password ? decodeURIComponent(parsed.password) : null,
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
