import { StoreError } from '../../errors';
import { BUILD_INFO_COMMAND, listIndexesCommand, type Doc, type KeyPattern } from './commands';
import { serverCode, serverMessage, type MongoDbLike } from './gateway';
import { ERROR_CODES, EXPIRE_AFTER_SECONDS, STORE } from './semantics';

/** One index as listIndexes reports it, reduced to what a TTL plan looks at. */
export interface LiveIndex {
  readonly name: string;
  readonly key: KeyPattern;
  /** Whether the spec has an expireAfterSeconds option at all (what makes it a TTL index). */
  readonly hasTtl: boolean;
  /** The option's value as the server returned it: normally a number, but old servers kept NaN or strings. */
  readonly expireAfterSeconds: unknown;
  readonly partial: boolean;
}

export interface LiveCollection {
  readonly name: string;
  readonly exists: boolean;
  readonly indexes: readonly LiveIndex[];
}

/** The live state a plan is made against: plain data, so plans are testable without a server. */
export interface LiveSchema {
  /** buildInfo.version, or null when the server would not say. */
  readonly serverVersion: string | null;
  readonly collections: readonly LiveCollection[];
}

export async function inspectSchema(db: MongoDbLike, collections: readonly string[]): Promise<LiveSchema> {
  const serverVersion = await readVersion(db);
  const live: LiveCollection[] = [];
  for (const name of collections) live.push(await inspectCollection(db, name));
  return { serverVersion, collections: live };
}

async function readVersion(db: MongoDbLike): Promise<string | null> {
  try {
    const info = await db.command(BUILD_INFO_COMMAND);
    return typeof info['version'] === 'string' ? info['version'] : null;
  } catch {
    // Without a version the plan assumes the oldest server: conversions become conflicts, never guesses.
    return null;
  }
}

export async function inspectCollection(db: MongoDbLike, name: string): Promise<LiveCollection> {
  let reply: Doc;
  try {
    reply = await db.command(listIndexesCommand(name));
  } catch (error) {
    if (serverCode(error) === ERROR_CODES.namespaceNotFound) return { name, exists: false, indexes: [] };
    throw new StoreError('STORE_OPERATION_FAILED', `listIndexes on '${name}' failed: ${serverMessage(error)}`, {
      store: STORE,
      cause: error,
      hint: 'the user needs the listIndexes privilege on the collection',
    });
  }
  const cursor = reply['cursor'] as { firstBatch?: unknown } | undefined;
  const batch = Array.isArray(cursor?.firstBatch) ? (cursor.firstBatch as Doc[]) : [];
  return { name, exists: true, indexes: batch.map(toLiveIndex) };
}

function toLiveIndex(spec: Doc): LiveIndex {
  return {
    name: String(spec['name']),
    key: (spec['key'] ?? {}) as KeyPattern,
    hasTtl: EXPIRE_AFTER_SECONDS in spec,
    expireAfterSeconds: numeric(spec[EXPIRE_AFTER_SECONDS]),
    partial: spec['partialFilterExpression'] !== undefined,
  };
}

/**
 * Whether a collection holds at least one document (one `countDocuments({}, { limit: 1 })`): a TTL
 * change over an empty collection makes nothing stored expire.
 */
export async function holdsDocuments(
  db: MongoDbLike,
  collection: string,
  entity: string | undefined,
): Promise<boolean> {
  try {
    return (await db.collection(collection).countDocuments({}, { limit: 1 })) > 0;
  } catch (error) {
    throw new StoreError(
      'STORE_OPERATION_FAILED',
      `counting documents in '${collection}' failed: ${serverMessage(error)}`,
      {
        store: STORE,
        entity,
        cause: error,
        hint: 'lifespan checks whether a collection holds documents before a TTL change that could reach them; the user needs find on it',
      },
    );
  }
}

/** BSON Int32/Double/Long wrappers (when a caller's driver does not promote them) become numbers. */
export function numeric(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { valueOf(): unknown }).valueOf === 'function') {
    const primitive = (value as { valueOf(): unknown }).valueOf();
    if (typeof primitive === 'number' || typeof primitive === 'bigint') return Number(primitive);
  }
  return value;
}
