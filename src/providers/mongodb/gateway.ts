import type { Doc } from './commands';

/**
 * The small part of the driver's `Db` lifespan uses. A real `Db` satisfies it as is (test/mongodb
 * checks that at compile time); unit tests pass a recording fake that returns server-shaped replies.
 * Everything lifespan sends goes through these few calls, so the tests see every command document,
 * filter and update pipeline exactly as the driver receives it.
 */
export interface MongoDbLike {
  readonly databaseName: string;
  command(command: Doc): Promise<Doc>;
  collection(name: string): MongoCollectionLike;
}

export interface MongoCollectionLike {
  updateOne(filter: Doc, update: Doc[], options: { upsert: boolean }): Promise<UpdateResultLike>;
  find(filter: Doc, options: FindOptionsLike): { toArray(): Promise<Doc[]> };
  aggregate(pipeline: Doc[], options: ReadOptionsLike): { toArray(): Promise<Doc[]> };
  countDocuments(filter: Doc, options: { limit?: number }): Promise<number>;
  deleteOne(filter: Doc): Promise<{ deletedCount: number }>;
  deleteMany(filter: Doc): Promise<{ deletedCount: number }>;
  bulkWrite(operations: BulkOperation[], options: { ordered: boolean }): Promise<unknown>;
}

/** The two bulk operations a unit of work sends. */
export type BulkOperation =
  | { readonly updateOne: { readonly filter: Doc; readonly update: Doc[]; readonly upsert: boolean } }
  | { readonly deleteOne: { readonly filter: Doc } };

export interface ReadOptionsLike {
  /** int64 values come back as bigint, so a bigint member keeps every digit. */
  readonly useBigInt64: boolean;
}

export interface FindOptionsLike extends ReadOptionsLike {
  readonly limit?: number;
  /** findPage / deleteMany walk `_id` in index order (issue 26). */
  readonly sort?: Doc;
}

export interface UpdateResultLike {
  readonly matchedCount: number;
  readonly modifiedCount: number;
  readonly upsertedCount: number;
}

/** The numeric server error code of a driver error (MongoServerError, MongoBulkWriteError), if any. */
export function serverCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number') return code;
  // MongoBulkWriteError.writeErrors is one WriteError or an array of them.
  const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
  const list: unknown[] = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  for (const e of list) {
    const inner = (e as { code?: unknown } | null)?.code;
    if (typeof inner === 'number') return inner;
  }
  return undefined;
}

/**
 * Whether a duplicate-key error (11000) is on _id, the record's key, as the server says it: the
 * reply's keyPattern `{ _id: 1 }`, or its message naming the index `_id_`. Another unique index, or
 * a reply that names none, is not the key. A bulk write's error is read from its write error.
 */
export function duplicateOnId(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
  const list: unknown[] = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  // The driver's WriteError keeps the server's document as `err`.
  const reply = (list.length > 0 ? ((list[0] as { err?: unknown }).err ?? list[0]) : error) as {
    keyPattern?: unknown;
    errmsg?: unknown;
    message?: unknown;
  };
  const pattern = reply.keyPattern;
  if (typeof pattern === 'object' && pattern !== null) {
    const fields = Object.entries(pattern);
    return fields.length === 1 && fields[0]?.[0] === '_id';
  }
  const text = typeof reply.errmsg === 'string' ? reply.errmsg : typeof reply.message === 'string' ? reply.message : '';
  return /\bindex: _id_(?:\s|$)/.test(text);
}

/** The server's words for a failure, for messages (code name and errmsg when the reply had them). */
export function serverMessage(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const e = error as { codeName?: unknown; message?: unknown; errmsg?: unknown };
  const text = typeof e.errmsg === 'string' ? e.errmsg : typeof e.message === 'string' ? e.message : String(error);
  const code = serverCode(error);
  return code === undefined ? text : `${typeof e.codeName === 'string' ? e.codeName : 'code'} ${code}: ${text}`;
}
