import { LifespanError, StoreError, UnsupportedTtlError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import { entityArgument, filterArgument, findLimit, keysArgument, writeOptions } from '../../runtime/arguments';
import { instanceOf } from '../../runtime/entity-values';
import { duplicateKey, type DuplicateHit } from '../../runtime/key-errors';
import { adoptVersion, withInitialVersion, withUpsertVersion } from '../../runtime/versioned-writes';
import type { DeleteOptions, FindOptions, GetOrInsertResult, KeyInput, Repository, WriteOptions } from '../contract';
import { MongoConditionalWrites } from './conditional-writes';
import { refuseSetTtlOnMember } from '../../runtime/write-instant';
import type { Doc } from './commands';
import type { CollectionMapping } from './compile';
import { fromDocument, idOf, idText, whereFilter } from './documents';
import { expiredFilter, remainingMsExpression, withLive } from './expiry-expressions';
import { duplicateOnId, serverCode, serverMessage, type MongoCollectionLike, type MongoDbLike } from './gateway';
import { ERROR_CODES, STORE } from './semantics';
import type { DeleteManyOptions, IterateOptions, Page, PageOptions } from '../contract';
import { deleteManyRequest } from '../../runtime/delete-many';
import { iteratePages } from '../../runtime/pages';
import { mongoDeleteMany, mongoPage, type MongoPages } from './pages';
import { expiryInstantPipeline, mongoWriteTtl } from './expiry-instant';
import { entityWrite, setTtlWrite, type WriteSpec } from './writes';

export interface MongoContext {
  readonly db: MongoDbLike;
  readonly hideExpired: boolean;
}

const READ = { useBigInt64: true } as const;

export class MongoRepository<T> implements Repository<T> {
  private readonly collection: MongoCollectionLike;
  private readonly conditional: MongoConditionalWrites<T>;

  constructor(
    private readonly ctx: MongoContext,
    private readonly mapping: CollectionMapping,
  ) {
    this.collection = ctx.db.collection(mapping.collection);
    this.conditional = new MongoConditionalWrites<T>(mapping, {
      collection: this.collection,
      guard: (operation, fn) => this.guard(operation, fn),
      duplicateError: (error) => this.duplicateError(error),
      getLive: async (key) => {
        const [doc] = await this.findDocs(withLive({ _id: idOf(mapping, key) }, mapping.ttl, true), 1);
        return doc ? this.materialise(doc) : undefined;
      },
    });
  }

  async insert(entity: T, options?: WriteOptions): Promise<void> {
    const given = entityArgument(entity, 'insert()', this.mapping.entity, STORE);
    const record = withInitialVersion(this.mapping.entity, given);
    const write = entityWrite(
      this.mapping,
      record,
      this.writeTtl(writeOptions(options, 'insert()', STORE).ttl, record),
      'insert',
      this.ctx.hideExpired,
    );
    try {
      await this.run(write);
    } catch (error) {
      if (serverCode(error) !== ERROR_CODES.duplicateKey) throw wrap(error, this.mapping, 'insert');
      if (!duplicateOnId(error)) throw this.duplicate('unique-constraint', error);
      // A due document the monitor has not deleted yet is absent to every read; it must not block the insert.
      if (!(await this.removeExpired(write.filter['_id']))) throw this.duplicate('key', error);
      try {
        await this.run(write);
      } catch (retryError) {
        if (serverCode(retryError) !== ERROR_CODES.duplicateKey) throw wrap(retryError, this.mapping, 'insert');
        throw this.duplicate(duplicateOnId(retryError) ? 'key' : 'unique-constraint', retryError);
      }
    }
    adoptVersion(this.mapping.entity, given, record);
  }

  async upsert(entity: T, options?: WriteOptions): Promise<void> {
    const given = entityArgument(entity, 'upsert()', this.mapping.entity, STORE);
    const record = withUpsertVersion(this.mapping.entity, given);
    const write = entityWrite(
      this.mapping,
      record,
      this.writeTtl(writeOptions(options, 'upsert()', STORE).ttl, record),
      'upsert',
      this.ctx.hideExpired,
    );
    try {
      await this.run(write);
    } catch (error) {
      // A unique index besides _id refuses an upsert too (an _id clash is a racing upsert: a plain failure).
      if (serverCode(error) === ERROR_CODES.duplicateKey && !duplicateOnId(error)) {
        throw this.duplicate('unique-constraint', error);
      }
      throw wrap(error, this.mapping, 'upsert');
    }
    adoptVersion(this.mapping.entity, given, record);
  }

  async get(key: KeyInput<T>): Promise<T | undefined> {
    const [doc] = await this.findDocs(this.live({ _id: idOf(this.mapping, key) }), 1);
    return doc ? this.materialise(doc) : undefined;
  }

  async getMany(keys: readonly KeyInput<T>[]): Promise<T[]> {
    keysArgument(keys, 'getMany()', this.place);
    if (keys.length === 0) return [];
    const ids = keys.map((k) => idOf(this.mapping, k));
    const docs = await this.findDocs(this.live({ _id: { $in: ids } }), undefined);
    const byId = new Map(docs.map((d) => [idText(d['_id']), d]));
    return ids.flatMap((id) => {
      const doc = byId.get(idText(id));
      return doc ? [this.materialise(doc)] : [];
    });
  }

  async find(where?: Partial<T>, options?: FindOptions): Promise<T[]> {
    const filter = this.live(whereFilter(this.mapping, filterArgument(where, 'find()', this.place)));
    const limit = findLimit(options, this.place);
    const docs = await this.findDocs(filter, limit);
    return docs.map((d) => this.materialise(d));
  }

  async exists(key: KeyInput<T>): Promise<boolean> {
    const filter = this.live({ _id: idOf(this.mapping, key) });
    return (await this.guard('exists', () => this.collection.countDocuments(filter, { limit: 1 }))) > 0;
  }

  async count(where?: Partial<T>): Promise<number> {
    const filter = this.live(whereFilter(this.mapping, filterArgument(where, 'count()', this.place)));
    return this.guard('count', () => this.collection.countDocuments(filter, {}));
  }

  async delete(key: KeyInput<T>, options?: DeleteOptions): Promise<boolean> {
    const conditional = await this.conditional.deleteIfVersion(key, options);
    if (conditional !== undefined) return conditional;
    const filter = this.live({ _id: idOf(this.mapping, key) });
    const result = await this.guard('delete', () => this.collection.deleteOne(filter));
    return result.deletedCount > 0;
  }

  async ttl(key: KeyInput<T>): Promise<number | null | undefined> {
    const pipeline: Doc[] = [
      { $match: this.live({ _id: idOf(this.mapping, key) }) },
      { $limit: 1 },
      { $project: { _id: 0, remainingMs: remainingMsExpression(this.mapping.ttl) } },
    ];
    const [row] = await this.guard('ttl', () => this.collection.aggregate(pipeline, READ).toArray());
    if (!row) return undefined;
    const ms = row['remainingMs'];
    if (ms === null || ms === undefined) return null;
    return Math.max(0, Math.ceil(Number(ms) / 1000));
  }

  /** The expiry field, or the date member + expireAfterSeconds, of the live document (expiry-instant.ts). */
  async expiresAt(key: KeyInput<T>): Promise<Date | null | undefined> {
    const pipeline = expiryInstantPipeline(this.live({ _id: idOf(this.mapping, key) }), this.mapping.ttl);
    const [row] = await this.guard('expiresAt', () => this.collection.aggregate(pipeline, READ).toArray());
    if (!row) return undefined;
    const at = row['expiresAt'];
    return at instanceof Date ? at : null;
  }

  async setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean> {
    const { entity, ttl: mongoTtl } = this.mapping;
    refuseSetTtlOnMember(entity, STORE);
    if (mongoTtl?.kind !== 'expiry-field') {
      const why =
        mongoTtl?.kind === 'date-member'
          ? `the collection-wide TTL index counts from ${mongoTtl.member} (expireAfterSeconds: ${mongoTtl.seconds}), ` +
            'so one document cannot get its own expiry'
          : 'the entity declares no TTL';
      throw new UnsupportedTtlError('TTL_SET_UNSUPPORTED', `setTtl is not supported: ${why}`, {
        entity: entity.name,
        store: STORE,
        hint:
          mongoTtl?.kind === 'date-member'
            ? `change ${mongoTtl.member} to move the expiry, or declare perWrite: true to store an expiry date per document`
            : 'declare @TimeToLive({ perWrite: true }) to store an expiry date per document',
      });
    }
    const resolved = this.writeTtl(ttl);
    const id = idOf(this.mapping, key);
    const write = setTtlWrite(this.mapping, mongoTtl, id, resolved, this.ctx.hideExpired);
    if (write === null) return this.exists(key);
    const result = await this.guard('setTtl', () =>
      this.collection.updateOne(write.filter, write.update, { upsert: false }),
    );
    return result.matchedCount > 0;
  }

  // Conditional writes, get-or-insert and partial updates (conditional-writes.ts).
  update(entity: T, options?: WriteOptions): Promise<void> {
    return this.conditional.update(entity, options);
  }

  getOrInsert(entity: T, options?: WriteOptions): Promise<GetOrInsertResult<T>> {
    return this.conditional.getOrInsert(entity, options);
  }

  patch(key: KeyInput<T>, changes: Partial<T>, options?: WriteOptions): Promise<boolean> {
    return this.conditional.patch(key, changes, options);
  }

  private duplicateError(error: unknown): unknown {
    if (serverCode(error) !== ERROR_CODES.duplicateKey) return wrap(error, this.mapping, 'insert');
    return this.duplicate(duplicateOnId(error) ? 'key' : 'unique-constraint', error);
  }

  // findPage / iterate / deleteMany (issue 26): ./pages.ts
  findPage(where?: Partial<T>, options?: PageOptions): Promise<Page<T>> {
    return mongoPage<T>(this.pages(), where, options);
  }

  iterate(where?: Partial<T>, options?: IterateOptions): AsyncIterable<T> {
    return iteratePages<T>((w, o) => this.findPage(w, o), where, options, this.place);
  }

  async deleteMany(where: Partial<T>, options?: DeleteManyOptions): Promise<number> {
    return mongoDeleteMany(this.pages(), deleteManyRequest(where, options, this.place));
  }

  private pages(): MongoPages {
    return { mapping: this.mapping, collection: this.collection, guard: (op, fn) => this.guard(op, fn) };
  }

  private get place() {
    return { entity: this.mapping.entity.name, store: STORE };
  }

  private writeTtl(ttl: PerWriteTtl | undefined, record?: object) {
    return mongoWriteTtl(this.mapping.entity, ttl, record);
  }

  private live(filter: Doc): Doc {
    return withLive(filter, this.mapping.ttl, this.ctx.hideExpired);
  }

  private async run(write: WriteSpec): Promise<void> {
    await this.collection.updateOne(write.filter, write.update, { upsert: write.upsert });
  }

  private async removeExpired(id: unknown): Promise<boolean> {
    const ttl = this.mapping.ttl;
    if (!this.ctx.hideExpired || ttl === null) return false;
    const result = await this.guard('insert', () => this.collection.deleteOne(expiredFilter({ _id: id }, ttl)));
    return result.deletedCount > 0;
  }

  private findDocs(filter: Doc, limit: number | undefined): Promise<Doc[]> {
    const options = limit === undefined ? READ : { ...READ, limit };
    return this.guard('read', () => this.collection.find(filter, options).toArray());
  }

  private materialise(doc: Doc): T {
    return instanceOf<T>(this.mapping.entity, fromDocument(this.mapping, doc));
  }

  private duplicate(hit: DuplicateHit, cause: unknown): StoreError {
    const { mapping } = this;
    return duplicateKey({ store: STORE, entity: mapping.entity, collection: mapping.collection, hit, cause });
  }

  private async guard<R>(operation: string, fn: () => Promise<R>): Promise<R> {
    try {
      return await fn();
    } catch (error) {
      throw wrap(error, this.mapping, operation);
    }
  }
}

export function wrap(error: unknown, mapping: CollectionMapping, operation: string): unknown {
  if (error instanceof LifespanError) return error;
  return new StoreError(
    'STORE_OPERATION_FAILED',
    `${operation} on '${mapping.collection}' failed: ${serverMessage(error)}`,
    {
      entity: mapping.entity.name,
      store: STORE,
      cause: error,
      hint: 'check the connection and the user\u2019s privileges; lifespan needs MongoDB 4.2+ (update pipelines, $$NOW)',
    },
  );
}
