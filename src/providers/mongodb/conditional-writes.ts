import { UnsupportedTtlError } from '../../errors';
import { fieldOf } from '../../model/types';
import { entityArgument } from '../../runtime/arguments';
import { conditionalWriteOptions, patchChanges } from '../../runtime/conditional-writes';
import {
  adoptVersion,
  runDeleteIfVersion,
  runUpdate,
  withInitialVersion,
  type ConditionalPlace,
} from '../../runtime/versioned-writes';
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

  update(entity: T, options: unknown): Promise<void> {
    const { mapping } = this;
    return runUpdate(this.place, entity, options, async ({ ttl, expected, next }) => {
      // The upsert pipeline keeps a stored @CreatedAt; here it runs only over a matched document.
      const write = entityWrite(mapping, next, writeTtlFor(mapping.entity, ttl, STORE), 'upsert', true);
      const filter = this.live({ ...write.filter, [this.versionField]: this.versionMatch(expected) });
      const result = await this.repo.guard('update', () =>
        this.repo.collection.updateOne(filter, write.update, { upsert: false }),
      );
      return result.matchedCount > 0;
    }).then(() => undefined);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const id = (): unknown => idOf(this.mapping, key);
    return runDeleteIfVersion(this.place, options, {
      exists: async () =>
        (await this.repo.guard('delete', () =>
          this.repo.collection.countDocuments(this.live({ _id: id() }), { limit: 1 }),
        )) > 0,
      deleteAt: async (version) => {
        const filter = this.live({ _id: id(), [this.versionField]: this.versionMatch(version) });
        return (await this.repo.guard('delete', () => this.repo.collection.deleteOne(filter))).deletedCount > 0;
      },
    });
  }

  /**
   * The insert is an upsert that cannot match (see INSERT_GUARD): the server lets one of two
   * racing callers create the document. A due document holding the key is deleted first (only
   * while it is still due) and the insert sent again.
   */
  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', mapping.entity, STORE);
    const given = entityArgument(entity, 'getOrInsert()', mapping.entity, STORE) as T & object;
    const record = withInitialVersion(mapping.entity, given);
    const write = entityWrite(mapping, record, writeTtlFor(mapping.entity, ttl, STORE), 'insert', true);
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
    const result = await insertElseGet(this.place, given, insert, () => this.repo.getLive(this.keyOf(given)));
    if (result.inserted) adoptVersion(mapping.entity, given, record);
    return result;
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
    // A document stored before @Version has none: it counts as 0, so the patch stores 1.
    if (mapping.entity.version !== null) {
      set[this.versionField] = { $add: [{ $ifNull: [`$${this.versionField}`, 0] }, 1] };
    }
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

  /** Version 0 also matches a document stored without one (null or missing). */
  private versionMatch(version: number): unknown {
    return version === 0 ? { $in: [0, null] } : version;
  }

  private get place(): ConditionalPlace {
    return { entity: this.mapping.entity, store: STORE, collection: this.mapping.collection };
  }
}
