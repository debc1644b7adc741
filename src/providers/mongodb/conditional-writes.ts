import { UnsupportedTtlError } from '../../errors';
import { fieldOf } from '../../model/types';
import { entityArgument } from '../../runtime/arguments';
import {
  conditionalWriteOptions,
  deleteOptions,
  expectedVersion,
  patchChanges,
  setVersion,
  versionConflict,
} from '../../runtime/conditional-writes';
import { insertElseGet } from '../../runtime/get-or-insert';
import { writeTtlFor } from '../../runtime/write-ttl';
import type { GetOrInsertResult, KeyInput } from '../contract';
import { toStored } from './codec';
import type { Doc } from './commands';
import type { CollectionMapping } from './compile';
import { idOf } from './documents';
import { expiredFilter, withLive } from './expiry-expressions';
import { duplicateOnId, serverCode, type MongoCollectionLike } from './gateway';
import { ERROR_CODES, STORE } from './semantics';
import { entityWrite, literal, setTtlWrite } from './writes';

/** What the conditional writes need of the repository: its guarded calls and its error wording. */
export interface MongoRepositoryPart<T> {
  readonly collection: MongoCollectionLike;
  guard<R>(operation: string, fn: () => Promise<R>): Promise<R>;
  duplicateError(error: unknown): unknown;
  /** The live document (due ones counted absent whatever hideExpired says). */
  getLive(key: KeyInput<T>): Promise<T | undefined>;
}

/**
 * update(), delete({ ifVersion }), getOrInsert() and patch() on one collection. Each is one
 * document write whose filter holds `_id`, the condition and the live predicate ($expr on the
 * expiry, always: a due document the TTL monitor has not deleted yet counts as absent, version 0),
 * so the server's per-document atomicity decides between racing writers.
 */
export class MongoConditionalWrites<T> {
  constructor(
    private readonly mapping: CollectionMapping,
    private readonly repo: MongoRepositoryPart<T>,
  ) {}

  async update(entity: T, options: unknown): Promise<void> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'update()', mapping.entity, STORE);
    const given = entityArgument(entity, 'update()', mapping.entity, STORE);
    const expected = expectedVersion(mapping.entity, given, STORE);
    const versionMember = mapping.entity.version as string;
    const next = { ...(given as Record<string, unknown>), [versionMember]: expected + 1 };
    // The upsert pipeline keeps a stored @CreatedAt; here it runs only over a matched document.
    const write = entityWrite(mapping, next, writeTtlFor(mapping.entity, ttl, STORE), 'upsert', true);
    const filter = this.live({ ...write.filter, [this.versionField]: expected });
    const result = await this.repo.guard('update', () =>
      this.repo.collection.updateOne(filter, write.update, { upsert: false }),
    );
    if (result.matchedCount === 0) throw this.conflict('update()', expected);
    setVersion(mapping.entity, given, expected + 1);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  async deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const { ifVersion } = deleteOptions(options, this.mapping.entity, STORE);
    if (ifVersion === undefined) return undefined;
    const id = idOf(this.mapping, key);
    if (ifVersion === 0) {
      const live = await this.repo.guard('delete', () =>
        this.repo.collection.countDocuments(this.live({ _id: id }), { limit: 1 }),
      );
      if (live > 0) throw this.conflict('delete()', 0);
      return false;
    }
    const filter = this.live({ _id: id, [this.versionField]: ifVersion });
    const result = await this.repo.guard('delete', () => this.repo.collection.deleteOne(filter));
    if (result.deletedCount === 0) throw this.conflict('delete()', ifVersion);
    return true;
  }

  /**
   * The insert is an upsert that cannot match (see INSERT_GUARD): the server lets one of two
   * racing callers create the document. A due document holding the key is deleted first (only
   * while it is still due) and the insert sent again.
   */
  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', mapping.entity, STORE);
    const given = entityArgument(entity, 'getOrInsert()', mapping.entity, STORE) as T;
    setVersion(mapping.entity, given as object, 1);
    const write = entityWrite(mapping, given as object, writeTtlFor(mapping.entity, ttl, STORE), 'insert', true);
    const key = write.filter['_id'];
    const insert = async (): Promise<void> => {
      for (let replaced = false; ; replaced = true) {
        try {
          await this.repo.collection.updateOne(write.filter, write.update, { upsert: true });
          return;
        } catch (error) {
          if (serverCode(error) !== ERROR_CODES.duplicateKey || !duplicateOnId(error) || replaced) {
            throw this.repo.duplicateError(error);
          }
          if (!(await this.removeExpired(key))) throw this.repo.duplicateError(error);
        }
      }
    };
    return insertElseGet(given, insert, () => this.repo.getLive(this.keyOf(given)));
  }

  async patch(key: KeyInput<T>, changes: unknown, options: unknown): Promise<boolean> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'patch()', mapping.entity, STORE);
    const members = patchChanges(mapping.entity, changes, STORE);
    const id = idOf(mapping, key);
    const set: Doc = {};
    for (const [member, value] of Object.entries(members)) {
      set[fieldOf(mapping.entity, member)?.storedName ?? member] = literal(toStored(mapping, member, value));
    }
    if (mapping.entity.version !== null) set[this.versionField] = { $add: [`$${this.versionField}`, 1] };
    const stages: Doc[] = [{ $set: set }, ...this.expiryStages(id, ttl)];
    const result = await this.repo.guard('patch', () =>
      this.repo.collection.updateOne(this.live({ _id: id }), stages, { upsert: false }),
    );
    return result.matchedCount > 0;
  }

  /** 'keep' (the default) leaves the expiry field alone; another ttl is setTtl's expiry update. */
  private expiryStages(id: unknown, requested: unknown): Doc[] {
    if (requested === undefined) return [];
    const resolved = writeTtlFor(this.mapping.entity, requested as never, STORE);
    if (resolved.kind === 'keep') return [];
    const ttl = this.mapping.ttl;
    if (ttl?.kind !== 'expiry-field') {
      throw new UnsupportedTtlError('TTL_SET_UNSUPPORTED', 'patch() with a ttl is not supported: no expiry field', {
        entity: this.mapping.entity.name,
        store: STORE,
        hint: 'declare @TimeToLive({ perWrite: true }) to store an expiry date per document, or patch without ttl',
      });
    }
    return setTtlWrite(this.mapping, ttl, id, resolved, true)?.update ?? [];
  }

  private async removeExpired(id: unknown): Promise<boolean> {
    const ttl = this.mapping.ttl;
    if (ttl === null) return false;
    const result = await this.repo.guard('getOrInsert', () =>
      this.repo.collection.deleteOne(expiredFilter({ _id: id }, ttl)),
    );
    return result.deletedCount > 0;
  }

  private live(filter: Doc): Doc {
    return withLive(filter, this.mapping.ttl, true);
  }

  private get versionField(): string {
    const member = this.mapping.entity.version as string;
    return fieldOf(this.mapping.entity, member)?.storedName ?? member;
  }

  private keyOf(entity: T): KeyInput<T> {
    const values = entity as Record<string, unknown>;
    return Object.fromEntries(this.mapping.key.map((k) => [k.member, values[k.member]])) as KeyInput<T>;
  }

  private conflict(call: 'update()' | 'delete()', expected: number) {
    const { mapping } = this;
    return versionConflict({ store: STORE, entity: mapping.entity, collection: mapping.collection, call, expected });
  }
}
