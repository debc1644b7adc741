/**
 * An in-memory MongoDB stand-in that evaluates what lifespan sends: documents and indexes are held
 * per collection, filters ($expr included), update pipelines and aggregations run through mingo (a
 * maintained implementation of MongoDB's query language), and schema commands are answered from
 * the fake's own index table under MongoDB's documented rules (./index-catalog.ts).
 *
 * Its clock is explicit: `$$NOW` in every filter, pipeline and aggregation is this fake's `now`, and
 * the TTL monitor runs only when a test calls `ttlMonitorPass()`, so "expired documents stay
 * readable until the monitor runs" is an outcome a test can observe.
 *
 * This is a second implementation, not MongoDB: where mingo or these rules differ from a server,
 * only a run against a real server (MONGODB_URI, test/mongodb/live.test.ts) tells.
 */
import { isDeepStrictEqual } from 'node:util';
import { Aggregator, Query } from 'mingo';
import type { MongoCollectionLike, MongoDbLike } from '../../../src/providers/mongodb';
import type { BulkOperation } from '../../../src/providers/mongodb/gateway';
import { bulkWriteError, serverError, type Call, type Doc } from '../recording-db';
import { IndexCatalog } from './index-catalog';

interface Collection {
  docs: Doc[];
  readonly indexes: IndexCatalog;
}

/** find() options the fake applies (useBigInt64: values are kept as stored, bigints included). */
const FIND_OPTIONS = new Set(['limit', 'sort', 'useBigInt64']);

export class MemoryDb implements MongoDbLike {
  readonly calls: Call[] = [];
  private readonly collections = new Map<string, Collection>();

  constructor(
    public now: Date = new Date('2030-01-01T12:00:00Z'),
    readonly databaseName = 'app',
    private readonly version = '7.0.2',
  ) {}

  /** Moves the clock on by whole seconds. */
  advance(seconds: number): this {
    this.now = new Date(this.now.getTime() + seconds * 1000);
    return this;
  }

  /** The command documents sent, in order. */
  commands(): Doc[] {
    return this.calls.filter((c) => c.op === 'command').map((c) => c.args[0] as Doc);
  }

  /** The stored documents of a collection, as stored (copies). */
  documents(name: string): Doc[] {
    return (this.collections.get(name)?.docs ?? []).map((d) => ({ ...d }));
  }

  /** Stores documents as they are (a test's fixture, bypassing lifespan). */
  seed(name: string, docs: Doc[]): void {
    this.collectionFor(name).docs.push(...docs.map((d) => ({ ...d })));
  }

  /**
   * One pass of the TTL monitor: deletes every document whose indexed field holds a date (the
   * earliest, for an array) with date + expireAfterSeconds <= now. Documents whose field is missing
   * or not a date never expire. Returns how many documents it deleted, per collection.
   */
  ttlMonitorPass(): Record<string, number> {
    const deleted: Record<string, number> = {};
    for (const [name, collection] of this.collections) {
      for (const { field, expireAfterSeconds } of collection.indexes.ttlIndexes()) {
        const before = collection.docs.length;
        collection.docs = collection.docs.filter((doc) => {
          const at = earliestDate(doc[field]);
          return at === undefined || at.getTime() + expireAfterSeconds * 1000 > this.now.getTime();
        });
        if (before !== collection.docs.length) deleted[name] = (deleted[name] ?? 0) + before - collection.docs.length;
      }
    }
    return deleted;
  }

  async command(command: Doc): Promise<Doc> {
    this.calls.push({ op: 'command', collection: null, args: [command] });
    const [verb] = Object.keys(command);
    const name = String(Object.values(command)[0]);
    switch (verb) {
      case 'buildInfo':
        return { version: this.version, ok: 1 };
      case 'hello':
        return { isWritablePrimary: true, localTime: new Date(this.now), ok: 1 };
      case 'listIndexes': {
        const collection = this.existing(name);
        return { cursor: { id: 0, ns: this.ns(name), firstBatch: collection.indexes.list() }, ok: 1 };
      }
      case 'create':
        if (this.collections.has(name)) {
          throw serverError(48, 'NamespaceExists', `Collection ${this.ns(name)} already exists.`);
        }
        this.collectionFor(name);
        return { ok: 1 };
      case 'createIndexes': {
        const created = !this.collections.has(name);
        const collection = this.collectionFor(name);
        const before = collection.indexes.list().length;
        const made = (command['indexes'] as Doc[]).map((spec) => collection.indexes.create(spec));
        return {
          numIndexesBefore: before,
          numIndexesAfter: collection.indexes.list().length,
          createdCollectionAutomatically: created,
          ...(made.some(Boolean) ? {} : { note: 'all indexes already exist' }),
          ok: 1,
        };
      }
      case 'collMod':
        return this.existing(name).indexes.modify(command['index'] as Doc);
      case 'dropIndexes': {
        const { indexes } = this.existing(name);
        const before = indexes.list().length;
        indexes.drop(String(command['index']));
        return { nIndexesWas: before, ok: 1 };
      }
      default:
        throw serverError(59, 'CommandNotFound', `no such command: '${String(verb)}'`);
    }
  }

  collection(name: string): MongoCollectionLike {
    const record = (op: Call['op'], ...args: unknown[]) => this.calls.push({ op, collection: name, args });
    const docs = () => this.collections.get(name)?.docs ?? [];
    return {
      updateOne: async (filter, update, options) => {
        record('updateOne', filter, update, options);
        return this.updateOne(name, filter, update, options.upsert);
      },
      find: (filter, options) => {
        record('find', filter, options);
        // The fake models limit and sort alone: another option (projection, skip …) would be silently ignored.
        const unsupported = Object.keys(options).filter((k) => !FIND_OPTIONS.has(k));
        if (unsupported.length > 0)
          throw new Error(`the in-memory fake's find() does not model ${unsupported.join(', ')}`);
        // mingo orders sub-documents by their sorted field names, not in stored order as the server
        // does; its $gt/$lt use the same order, so a keyset walk on _id is still exact here.
        const matched = docs().filter(this.matcher(filter));
        const found = options.sort ? (new Query({}).find(matched).sort(options.sort).all() as Doc[]) : matched;
        return { toArray: async () => copies(options.limit === undefined ? found : found.slice(0, options.limit)) };
      },
      aggregate: (pipeline) => {
        record('aggregate', pipeline);
        return { toArray: async () => copies(new Aggregator(this.atNow(pipeline) as Doc[]).run(docs()) as Doc[]) };
      },
      countDocuments: async (filter, options) => {
        record('countDocuments', filter, options);
        const n = docs().filter(this.matcher(filter)).length;
        return options.limit === undefined ? n : Math.min(n, options.limit);
      },
      deleteOne: async (filter) => {
        record('deleteOne', filter);
        return { deletedCount: this.remove(name, filter, 1) };
      },
      deleteMany: async (filter) => {
        record('deleteMany', filter);
        return { deletedCount: this.remove(name, filter, Infinity) };
      },
      bulkWrite: async (operations, options) => {
        record('bulkWrite', operations, options);
        return this.bulkWrite(name, operations);
      },
    };
  }

  private updateOne(name: string, filter: Doc, update: Doc[], upsert: boolean) {
    const collection = this.collectionFor(name);
    const pipeline = this.atNow(update) as Doc[];
    const at = collection.docs.findIndex(this.matcher(filter));
    const target = collection.docs[at];
    if (target) {
      const next = applyPipeline(pipeline, target);
      this.checkUnique(name, collection, next, target);
      const modified = !isDeepStrictEqual(next, target);
      collection.docs[at] = next;
      return { matchedCount: 1, modifiedCount: modified ? 1 : 0, upsertedCount: 0 };
    }
    if (!upsert) return { matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    const created = applyPipeline(pipeline, upsertSeed(filter));
    if (collection.docs.some(sameId(created['_id']))) {
      throw duplicateKeyError(this.ns(name), '_id_', { _id: 1 }, { _id: created['_id'] });
    }
    this.checkUnique(name, collection, created, undefined);
    collection.docs.push(created);
    return { matchedCount: 0, modifiedCount: 0, upsertedCount: 1 };
  }

  /** A unique index besides _id that `doc` (replacing `replaced`, if any) would break: the server's 11000. */
  private checkUnique(name: string, collection: Collection, doc: Doc, replaced: Doc | undefined): void {
    const clash = collection.indexes.uniqueClash(
      collection.docs.filter((d) => d !== replaced),
      doc,
    );
    if (!clash) return;
    const fields = Object.keys(clash.key);
    throw duplicateKeyError(
      this.ns(name),
      clash.name,
      clash.key,
      Object.fromEntries(fields.map((f) => [f, doc[f] ?? null])),
    );
  }

  private bulkWrite(name: string, operations: BulkOperation[]) {
    const counts = { upsertedCount: 0, matchedCount: 0, modifiedCount: 0, deletedCount: 0 };
    operations.forEach((operation, index) => {
      try {
        if ('deleteOne' in operation) {
          counts.deletedCount += this.remove(name, operation.deleteOne.filter, 1);
          return;
        }
        const { filter, update, upsert } = operation.updateOne;
        const result = this.updateOne(name, filter, update, upsert);
        counts.upsertedCount += result.upsertedCount;
        counts.matchedCount += result.matchedCount;
        counts.modifiedCount += result.modifiedCount;
      } catch (error) {
        const e = error as { code: number; message: string; keyPattern?: Doc; keyValue?: Doc };
        const details = e.keyPattern ? { keyPattern: e.keyPattern, keyValue: e.keyValue } : {};
        throw bulkWriteError(index, e.code, e.message, counts, details);
      }
    });
    return { ...counts, insertedCount: 0 };
  }

  private remove(name: string, filter: Doc, limit: number): number {
    const collection = this.collections.get(name);
    if (!collection) return 0;
    const matches = this.matcher(filter);
    let removed = 0;
    collection.docs = collection.docs.filter((doc) => {
      if (removed >= limit || !matches(doc)) return true;
      removed++;
      return false;
    });
    return removed;
  }

  private matcher(filter: Doc): (doc: Doc) => boolean {
    const query = new Query(this.atNow(filter) as Doc);
    return (doc) => query.test(doc);
  }

  /** `$$NOW` as this fake's clock: replaced by the instant everywhere but inside $literal. */
  private atNow(value: unknown): unknown {
    if (value === '$$NOW') return { $literal: new Date(this.now) };
    if (Array.isArray(value)) return value.map((v) => this.atNow(v));
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$literal' ? v : this.atNow(v)]));
  }

  private existing(name: string): Collection {
    const collection = this.collections.get(name);
    if (!collection) throw serverError(26, 'NamespaceNotFound', `ns does not exist: ${this.ns(name)}`);
    return collection;
  }

  private collectionFor(name: string): Collection {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = { docs: [], indexes: new IndexCatalog(this.ns(name)) };
      this.collections.set(name, collection);
    }
    return collection;
  }

  private ns(name: string): string {
    return `${this.databaseName}.${name}`;
  }
}

/** The server's 11000 DuplicateKey: the message names the index, the reply carries keyPattern and keyValue. */
function duplicateKeyError(ns: string, index: string, keyPattern: Doc, keyValue: Doc) {
  const error = serverError(
    11000,
    'DuplicateKey',
    `E11000 duplicate key error collection: ${ns} index: ${index} dup key: ${JSON.stringify(keyValue)}`,
  );
  return Object.assign(error, { keyPattern, keyValue });
}

/** An update pipeline applied to one document ($set, $unset, … as aggregation stages). */
function applyPipeline(pipeline: Doc[], doc: Doc): Doc {
  const [next] = new Aggregator(pipeline).run([{ ...doc }]) as Doc[];
  return next ?? {};
}

/**
 * The document an upsert starts from: the filter's equality conditions (operator conditions such as
 * `{ $exists: true }` and `$expr` contribute nothing), as the server builds it.
 */
function upsertSeed(filter: Doc): Doc {
  const seed: Doc = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$')) continue;
    if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
      if ('$eq' in value) seed[key] = value['$eq'];
      continue;
    }
    seed[key] = value;
  }
  return seed;
}

function sameId(id: unknown): (doc: Doc) => boolean {
  const query = new Query({ _id: { $eq: id } });
  return (doc) => query.test(doc);
}

function earliestDate(value: unknown): Date | undefined {
  const dates = (Array.isArray(value) ? value : [value]).filter((v): v is Date => v instanceof Date);
  if (dates.length === 0) return undefined;
  return dates.reduce((a, b) => (a.getTime() <= b.getTime() ? a : b));
}

function isPlainObject(value: unknown): value is Doc {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function copies(docs: Doc[]): Doc[] {
  return docs.map((d) => ({ ...d }));
}
