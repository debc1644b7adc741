import { badStoreUrl, decodedPart, parseStoreUrl, type StoreUrlForm } from '../../core/store-url';
import { LifespanError, StoreError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { STORE } from './semantics';
import { MongoStore } from './store';
import { MONGO_URL_OPTIONS } from './url-options';

const MONGO_URL: StoreUrlForm = {
  store: STORE,
  what: 'the MongoDB URL',
  example: 'mongodb://user:password@host:27017/app (the path is the database)',
  authority: true,
  options: MONGO_URL_OPTIONS,
  caseInsensitiveOptions: true,
};

interface MongoUrlParts {
  driverUrl: string;
  database: string;
  password: string | null;
  hideExpired: boolean;
}

/** The parts of a MongoDB connection string lifespan needs; hosts may be a list, so no WHATWG URL. */
export function parseMongoUrl(url: string): MongoUrlParts {
  return readMongoUrl(url).parts;
}

function readMongoUrl(url: string): { parts: MongoUrlParts; secrets: readonly string[] } {
  const parsed = parseStoreUrl(url, MONGO_URL);
  const database = decodedPart(parsed.path, 'database', MONGO_URL);
  if (database === '') {
    throw badStoreUrl(STORE, 'the MongoDB URL must name a database', `write it as ${MONGO_URL.example}`);
  }
  const hideExpired = parsed.own.get('hideExpired');
  return {
    parts: {
      driverUrl: parsed.driverUrl,
      database,
      password: parsed.password ?? null,
      hideExpired: hideExpired === 'true' || hideExpired === '1',
    },
    secrets: parsed.secrets,
  };
}

/** Opens `mongodb://…/db` for the CLI; loads the driver only here. */
export async function openMongoUrl(url: string): Promise<OpenedStore> {
  const { parts, secrets } = readMongoUrl(url);
  const { driverUrl, database, hideExpired } = parts;
  const { MongoClient } = require('mongodb') as typeof import('mongodb');
  // A CLI run should fail in seconds, not the driver's default 30 s, unless the URL says otherwise.
  const timeout = /[?&]serverSelectionTimeoutMS=/i.test(driverUrl) ? {} : { serverSelectionTimeoutMS: 10_000 };
  let client: InstanceType<typeof MongoClient>;
  try {
    client = new MongoClient(driverUrl, timeout);
  } catch (error) {
    // The driver parses the URL here: an unknown option or a bad port is a mistake in the URL.
    throw new LifespanError('STORE_BAD_URL', `the MongoDB URL is not valid: ${(error as Error).message}`, {
      store: STORE,
      cause: error,
      hint: 'check the host, port and options of the URL (https://www.mongodb.com/docs/manual/reference/connection-string/)',
    });
  }
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new StoreError('STORE_CONNECT_FAILED', `cannot connect to MongoDB: ${(error as Error).message}`, {
      store: STORE,
      cause: error,
      hint: 'check the host, port, credentials and that the server is running',
    });
  }
  return {
    store: new MongoStore({ db: client.db(database), hideExpired }),
    secrets,
    dispose: () => client.close(),
  };
}
