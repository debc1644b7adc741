import { LifespanError, StoreError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { STORE } from './semantics';
import { MongoStore } from './store';

/** lifespan's own URL option: `mongodb://host/app?hideExpired=true` (removed before the driver sees the URL). */
const HIDE_EXPIRED = 'hideExpired';

/** The parts of a MongoDB connection string lifespan needs; hosts may be a list, so no WHATWG URL. */
export function parseMongoUrl(url: string): {
  driverUrl: string;
  database: string;
  password: string | null;
  hideExpired: boolean;
} {
  const match = /^(mongodb(?:\+srv)?:\/\/)(?:([^:@/]*)(?::([^@/]*))?@)?([^/?]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(url);
  const database = match?.[5] ? decodeURIComponent(match[5]) : '';
  if (!match || database === '') {
    throw new LifespanError('MONGO_URL_NO_DATABASE', 'the MongoDB URL must name a database', {
      store: STORE,
      hint: 'write it as mongodb://user:password@host:27017/app (the path is the database)',
    });
  }
  const params = (match[6] ?? '').split('&').filter((p) => p !== '');
  const hide = params.find((p) => p.split('=')[0] === HIDE_EXPIRED);
  const rest = params.filter((p) => p !== hide);
  const driverUrl = url.replace(/\?.*$/, '') + (rest.length > 0 ? `?${rest.join('&')}` : '');
  return {
    driverUrl,
    database,
    password: match[3] !== undefined ? decodeURIComponent(match[3]) : null,
    hideExpired: hide !== undefined && /^hideExpired=(true|1)$/.test(hide),
  };
}

/** Opens `mongodb://…/db` for the CLI; loads the driver only here. */
export async function openMongoUrl(url: string): Promise<OpenedStore> {
  const { driverUrl, database, password, hideExpired } = parseMongoUrl(url);
  const { MongoClient } = require('mongodb') as typeof import('mongodb');
  // A CLI run should fail in seconds, not the driver's default 30 s, unless the URL says otherwise.
  const timeout = /[?&]serverSelectionTimeoutMS=/i.test(driverUrl) ? {} : { serverSelectionTimeoutMS: 10_000 };
  let client: InstanceType<typeof MongoClient>;
  try {
    client = new MongoClient(driverUrl, timeout);
  } catch (error) {
    // The driver parses the URL here: an unknown option or a bad port is a mistake in the URL.
    throw new LifespanError('MONGODB_BAD_URL', `the MongoDB URL is not valid: ${(error as Error).message}`, {
      store: STORE,
      cause: error,
      hint: 'check the host, port and options of the URL (https://www.mongodb.com/docs/manual/reference/connection-string/)',
    });
  }
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new StoreError('MONGO_CONNECT_FAILED', `cannot connect to MongoDB: ${(error as Error).message}`, {
      store: STORE,
      cause: error,
      hint: 'check the host, port, credentials and that the server is running',
    });
  }
  return {
    store: new MongoStore({ db: client.db(database), hideExpired }),
    secrets: password ? [password] : [],
    dispose: () => client.close(),
  };
}
