import { closestName } from '../../core/closest-name';
import { badStoreUrl, decodedPart, isYes, knownOptions, parseStoreUrl, type StoreUrlForm } from '../../core/store-url';
import { connectFailure } from '../connection-errors';
import type { OpenedStore } from '../connection-target';
import { connectionErrors } from './connection-errors';
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
  // The driver knows more options than any list here and refuses the others itself.
  passUnknownOptions: true,
};

/** What MongoDB refuses in a database name (https://www.mongodb.com/docs/manual/reference/limits/#naming-restrictions). */
const BAD_DATABASE_NAME = /[/\\. "$*<>:|?\0]/;

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
  if (BAD_DATABASE_NAME.test(database) || Buffer.byteLength(database) >= 64) {
    throw badStoreUrl(
      STORE,
      'the database of the MongoDB URL is not a valid MongoDB database name',
      'a database name has fewer than 64 bytes and none of / \\ . space " $ * < > : | ?',
    );
  }
  const hideExpired = parsed.own.get('hideExpired');
  return {
    parts: {
      driverUrl: parsed.driverUrl,
      database,
      password: parsed.password ?? null,
      hideExpired: isYes(hideExpired),
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
    throw badStoreUrl(
      STORE,
      `the MongoDB URL is not valid: ${(error as Error).message}${unknownOptionGuess(error)}`,
      `check the host and port; ${knownOptions(MONGO_URL)} (https://www.mongodb.com/docs/manual/reference/connection-string-options/)`,
      error,
    );
  }
  try {
    await client.connect();
    return {
      store: new MongoStore({ db: client.db(database), hideExpired }),
      secrets,
      dispose: () => client.close(),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw connectFailure(error, STORE, 'MongoDB', 'check the host, port, credentials and that the server is running', [
      connectionErrors,
    ]);
  }
}

/** " (did you mean …?)" for the driver's "option … is not supported", from the options named here. */
function unknownOptionGuess(error: unknown): string {
  const typed = /options? (\w+) (?:is|are) not supported/i.exec((error as Error).message)?.[1];
  const guess = typed ? closestName(typed, Object.keys(MONGO_URL_OPTIONS)) : undefined;
  return guess ? ` (did you mean ${guess}?)` : '';
}
