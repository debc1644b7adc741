/**
 * A recording stand-in for the driver's Db: it records every call lifespan makes (command documents,
 * filters, update pipelines, options) and answers with replies shaped like a MongoDB server's. It
 * does not evaluate queries or pipelines: each test scripts the replies it needs (server failures,
 * odd replies, a driver's BSON wrappers) and asserts on what was sent. What those filters and
 * pipelines DO is asserted against the evaluating fake, ./fake/memory-db.ts (documents, indexes,
 * $$NOW, the TTL monitor). Server errors are real driver MongoServerError instances carrying the
 * server's codes.
 */
import { isDeepStrictEqual } from 'node:util';
import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import type { MongoCollectionLike, MongoDbLike } from '../../src/providers/mongodb';

export type Doc = Record<string, unknown>;

export interface Call {
  readonly op:
    'command' | 'updateOne' | 'find' | 'aggregate' | 'countDocuments' | 'deleteOne' | 'deleteMany' | 'bulkWrite';
  readonly collection: string | null;
  readonly args: readonly unknown[];
}

/** Returns the reply for a call, or throws the server's error. */
export type Responder = (call: Call) => unknown;

export class RecordingDb implements MongoDbLike {
  readonly calls: Call[] = [];

  constructor(
    private readonly respond: Responder,
    readonly databaseName = 'app',
  ) {}

  async command(command: Doc): Promise<Doc> {
    return (await this.answer({ op: 'command', collection: null, args: [command] })) as Doc;
  }

  collection(name: string): MongoCollectionLike {
    const call = (op: Call['op'], ...args: unknown[]) => this.answer({ op, collection: name, args });
    const cursor = (op: Call['op'], ...args: unknown[]) => ({
      toArray: async () => (await call(op, ...args)) as Doc[],
    });
    return {
      updateOne: async (filter, update, options) =>
        (await call('updateOne', filter, update, options)) as {
          matchedCount: number;
          modifiedCount: number;
          upsertedCount: number;
        },
      find: (filter, options) => cursor('find', filter, options),
      aggregate: (pipeline, options) => cursor('aggregate', pipeline, options),
      countDocuments: async (filter, options) => (await call('countDocuments', filter, options)) as number,
      deleteOne: async (filter) => (await call('deleteOne', filter)) as { deletedCount: number },
      deleteMany: async (filter) => (await call('deleteMany', filter)) as { deletedCount: number },
      bulkWrite: async (operations, options) => call('bulkWrite', operations, options),
    };
  }

  /** The command documents sent, in order. */
  commands(): Doc[] {
    return this.calls.filter((c) => c.op === 'command').map((c) => c.args[0] as Doc);
  }

  /** Calls other than schema commands (reads and writes), in order. */
  dataCalls(): Call[] {
    return this.calls.filter((c) => c.op !== 'command');
  }

  private async answer(call: Call): Promise<unknown> {
    this.calls.push(call);
    return this.respond(call);
  }
}

/** A server error reply as the driver raises it ({ ok: 0, code, codeName, errmsg }). */
export function serverError(code: number, codeName: string, errmsg: string): MongoServerError {
  return new MongoServerError({ ok: 0, code, codeName, errmsg, message: errmsg });
}

/**
 * What an ordered bulkWrite throws when operation `index` fails: the driver's MongoBulkWriteError
 * with its write error (index in the operations sent) and the counts of what was written before.
 */
export function bulkWriteError(
  index: number,
  code: number,
  errmsg: string,
  counts: { upsertedCount?: number; matchedCount?: number; modifiedCount?: number; deletedCount?: number } = {},
  /** More fields of the write error as the server sends them (keyPattern, keyValue of an 11000). */
  details: Doc = {},
): MongoBulkWriteError {
  const result = { insertedCount: 0, upsertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0, ...counts };
  return new MongoBulkWriteError(
    { message: errmsg, code, writeErrors: [{ index, code, errmsg, ...details }] } as never,
    result as never,
  );
}

export const NAMESPACE_NOT_FOUND = () => serverError(26, 'NamespaceNotFound', 'ns does not exist: app.x');

/** The reply of listIndexes for these index specs. */
export function listIndexesReply(collection: string, specs: Doc[]): Doc {
  return {
    cursor: { id: 0, ns: `app.${collection}`, firstBatch: [{ v: 2, key: { _id: 1 }, name: '_id_' }, ...specs] },
    ok: 1,
  };
}

export interface SchemaScript {
  /** buildInfo.version; null: buildInfo fails. */
  readonly version?: string | null;
  /** Index specs per collection (besides _id_); a collection not listed does not exist. */
  readonly indexes?: Record<string, Doc[]>;
  /** hello.localTime. */
  readonly now?: Date;
  /** Replies to collMod (default: the new value, and the old one from `indexes`, as a server answers). */
  readonly collMod?: (command: Doc) => Doc;
  /** Replies to createIndexes (default: created). */
  readonly createIndexes?: (command: Doc) => Doc;
  /** Replies to anything else. */
  readonly other?: Responder;
}

/**
 * What a server answers a collMod of expireAfterSeconds: the new value, and the old one when the
 * index on that key pattern had one (a conversion of a plain index has no `_old`).
 */
function collModReply(specs: readonly Doc[], index: Doc): Doc {
  const old = specs.find((spec) => isDeepStrictEqual(spec['key'], index['keyPattern']))?.['expireAfterSeconds'];
  return {
    ...(old === undefined ? {} : { expireAfterSeconds_old: old }),
    expireAfterSeconds_new: index['expireAfterSeconds'],
    ok: 1,
  };
}

/** A responder for the schema commands of plan()/apply(), with server-shaped replies. */
export function schemaResponder(script: SchemaScript): Responder {
  return (call) => {
    if (call.op !== 'command') {
      if (script.other) return script.other(call);
      throw new Error(`unexpected ${call.op} on ${call.collection}`);
    }
    const command = call.args[0] as Doc;
    if ('buildInfo' in command) {
      if (script.version === null) throw serverError(13, 'Unauthorized', 'not authorized on admin to execute command');
      return { version: script.version ?? '7.0.2', ok: 1 };
    }
    if ('hello' in command) return { isWritablePrimary: true, localTime: script.now ?? new Date(), ok: 1 };
    if ('listIndexes' in command) {
      const name = command['listIndexes'] as string;
      const specs = script.indexes?.[name];
      if (specs === undefined) throw NAMESPACE_NOT_FOUND();
      return listIndexesReply(name, specs);
    }
    if ('createIndexes' in command) {
      return script.createIndexes
        ? script.createIndexes(command)
        : { numIndexesBefore: 1, numIndexesAfter: 2, createdCollectionAutomatically: false, ok: 1 };
    }
    if ('collMod' in command) {
      if (script.collMod) return script.collMod(command);
      return collModReply(script.indexes?.[command['collMod'] as string] ?? [], command['index'] as Doc);
    }
    if ('create' in command || 'dropIndexes' in command) return { ok: 1 };
    if (script.other) return script.other(call);
    throw new Error(`unexpected command ${JSON.stringify(command)}`);
  };
}
