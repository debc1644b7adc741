import { LifespanError } from '../../errors';
import type { EntityClass } from '../../model/types';
import { writeTtlFor } from '../../runtime/write-ttl';
import type { KeyInput, UnitOfWork, WriteOptions } from '../contract';
import type { CollectionMapping } from './compile';
import { idOf } from './documents';
import { expiredFilter } from './expiry';
import { serverCode, type BulkOperation, type MongoDbLike } from './gateway';
import { duplicate, wrap } from './repository';
import { ERROR_CODES, STORE } from './semantics';
import { entityWrite } from './writes';

type Pending =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly mapping: CollectionMapping;
      readonly entity: object;
      readonly options: WriteOptions;
    }
  | { readonly kind: 'delete'; readonly mapping: CollectionMapping; readonly key: KeyInput<unknown> };

interface Batch {
  readonly mapping: CollectionMapping;
  readonly operations: BulkOperation[];
  readonly insertIds: unknown[];
}

/**
 * Collects writes and sends them as ordered bulkWrites, one per run of consecutive writes to the
 * same collection. Every write is built (and every TTL checked) before anything is sent. Not atomic
 * across collections: that needs a replica set transaction, which lifespan does not open.
 */
export class MongoUnitOfWork implements UnitOfWork {
  private pending: Pending[] = [];

  constructor(
    private readonly db: MongoDbLike,
    private readonly hideExpired: boolean,
    private readonly mappingOf: (target: EntityClass) => CollectionMapping,
  ) {}

  insert(entity: object, options: WriteOptions = {}): this {
    this.pending.push({ kind: 'insert', mapping: this.mappingOf(classOf(entity)), entity, options });
    return this;
  }

  upsert(entity: object, options: WriteOptions = {}): this {
    this.pending.push({ kind: 'upsert', mapping: this.mappingOf(classOf(entity)), entity, options });
    return this;
  }

  delete<T>(target: EntityClass<T>, key: KeyInput<T>): this {
    this.pending.push({ kind: 'delete', mapping: this.mappingOf(target), key: key as KeyInput<unknown> });
    return this;
  }

  async commit(options: WriteOptions = {}): Promise<void> {
    const batches = this.build(options);
    this.pending = [];
    for (const batch of batches) {
      const collection = this.db.collection(batch.mapping.collection);
      const ttl = batch.mapping.ttl;
      if (this.hideExpired && ttl !== null && batch.insertIds.length > 0) {
        // Due documents the monitor has not deleted yet are absent to reads; they must not block inserts.
        await collection.deleteMany(expiredFilter({ _id: { $in: batch.insertIds } }, ttl));
      }
      try {
        await collection.bulkWrite(batch.operations, { ordered: true });
      } catch (error) {
        throw serverCode(error) === ERROR_CODES.duplicateKey
          ? duplicate(batch.mapping, error)
          : wrap(error, batch.mapping, 'commit');
      }
    }
  }

  private build(options: WriteOptions): Batch[] {
    const batches: Batch[] = [];
    for (const item of this.pending) {
      let last = batches[batches.length - 1];
      if (!last || last.mapping !== item.mapping) {
        last = { mapping: item.mapping, operations: [], insertIds: [] };
        batches.push(last);
      }
      if (item.kind === 'delete') {
        last.operations.push({ deleteOne: { filter: { _id: idOf(item.mapping, item.key) } } });
        continue;
      }
      const ttl = writeTtlFor(item.mapping.entity, item.options.ttl ?? options.ttl, STORE, true);
      const write = entityWrite(item.mapping, item.entity, ttl, item.kind, this.hideExpired);
      last.operations.push({ updateOne: { filter: write.filter, update: write.update, upsert: write.upsert } });
      if (item.kind === 'insert') last.insertIds.push(write.filter['_id']);
    }
    return batches;
  }
}

function classOf(entity: object): EntityClass {
  if (typeof entity !== 'object' || entity === null) {
    throw new LifespanError('UOW_NOT_AN_ENTITY', `cannot write ${String(entity)}: it is not an entity instance`, {
      store: STORE,
      hint: 'pass an instance of a class in the model',
    });
  }
  return entity.constructor as EntityClass;
}
