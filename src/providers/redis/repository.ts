import type { StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import { entityArgument, filterArgument, findLimit, keysArgument, writeOptions } from '../../runtime/arguments';
import { instanceOf } from '../../runtime/entity-values';
import { duplicateKey, type CommitOutcome, type DuplicateHit } from '../../runtime/key-errors';
import { adoptVersion, withInitialVersion, withUpsertVersion } from '../../runtime/versioned-writes';
import type { DeleteOptions, FindOptions, GetOrInsertResult, KeyInput, Repository, WriteOptions } from '../contract';
import { RedisConditionalWrites } from './conditional-writes';
import { recordWriteTtl, refuseSetTtlOnMember } from '../../runtime/write-instant';
import { decodeRecord, parseStored, type StoredRecord } from './codec';
import type { KeyspaceMapping } from './compile';
import { call } from './gateway';
import { readExpiryInstant } from './expiry-instant';
import { keyOf } from './keys';
import { encodeEntity } from './records';
import { runScript, runScriptFor, SET_TTL_SCRIPT, WRITE_SCRIPT } from './scripts';
import { indexedCall, indexKeyOf, indexLayout, INDEXED_COMMAND_SCRIPT, type IndexLayout } from './collection-index';
import { readCollection } from './collection-reads';
import { STORE } from './semantics';
import type { DeleteManyOptions, IterateOptions, Page, PageOptions } from '../contract';
import { deleteManyRequest } from '../../runtime/delete-many';
import { iteratePages } from '../../runtime/pages';
import { redisDeleteMany } from './delete-many';
import { redisPage, type RedisPages } from './pages';
import {
  amountOf,
  createdAtPattern,
  insertCommand,
  plainUpsertCommand,
  redisTtl,
  scriptArgs,
  type RedisTtl,
} from './writes';
import type { CheckedTouch } from '../../runtime/touch';
import { readTouched } from './touch';
import type { RedisContext } from './context';

export class RedisRepository<T> implements Repository<T> {
  private readonly keepCreatedAt: string;
  private readonly conditional: RedisConditionalWrites<T>;
  private readonly layout: IndexLayout;
  private readonly places = new Map<string, { readonly entity: string; readonly operation: string }>();

  constructor(
    private readonly ctx: RedisContext,
    private readonly mapping: KeyspaceMapping,
  ) {
    this.keepCreatedAt = createdAtPattern(mapping);
    this.conditional = new RedisConditionalWrites<T>(ctx, mapping);
    this.layout = indexLayout(ctx.client, ctx.prefix);
  }

  async insert(entity: T, options?: WriteOptions): Promise<void> {
    const requested = writeOptions(options, 'insert()', STORE).ttl;
    const given = entityArgument(entity, 'insert()', this.mapping.entity, STORE);
    const record = withInitialVersion(this.mapping.entity, given);
    const ttl = this.ttlOf(requested, record);
    const { key, value } = encodeEntity(this.ctx.prefix, this.mapping, record);
    const reply = await this.indexed<string | null>(insertCommand(key, value, ttl), this.place('insert'));
    if (reply === null) throw duplicateKeyIn(this.mapping, 'key');
    adoptVersion(this.mapping.entity, given, record);
  }

  async upsert(entity: T, options?: WriteOptions): Promise<void> {
    const requested = writeOptions(options, 'upsert()', STORE).ttl;
    const given = entityArgument(entity, 'upsert()', this.mapping.entity, STORE);
    const record = withUpsertVersion(this.mapping.entity, given);
    const ttl = this.ttlOf(requested, record);
    const { key, value } = encodeEntity(this.ctx.prefix, this.mapping, record);
    const plain = this.keepCreatedAt === '' ? plainUpsertCommand(key, value, ttl) : null;
    if (plain) await this.indexed(plain, this.place('upsert'));
    else
      await runScript(
        this.ctx.client,
        WRITE_SCRIPT,
        this.withIndex(key),
        this.writeArgs('upsert', ttl, value),
        this.place('upsert'),
      );
    adoptVersion(this.mapping.entity, given, record);
  }

  async get(key: KeyInput<T>): Promise<T | undefined> {
    const name = this.key(key);
    const text = await call<string | null>(this.ctx.client, ['GET', name], this.place('get'));
    return text === null ? undefined : this.materialise(name, parseStored(this.mapping, name, text));
  }

  /** One MGET: one round trip for every key. */
  async getMany(keys: readonly KeyInput<T>[]): Promise<T[]> {
    keysArgument(keys, 'getMany()', this.argumentPlace());
    if (keys.length === 0) return [];
    const names = keys.map((k) => this.key(k));
    const texts = await call<Array<string | null>>(this.ctx.client, ['MGET', ...names], this.place('getMany'));
    return texts.flatMap((text, i) => {
      const name = names[i] as string;
      return text === null ? [] : [this.materialise(name, parseStored(this.mapping, name, text))];
    });
  }

  /** The collection index's live members and their values, a page at a time (collection-reads.ts; see explain()). */
  async find(where?: Partial<T>, options?: FindOptions): Promise<T[]> {
    const filter = filterArgument(where, 'find()', this.argumentPlace());
    const limit = findLimit(options, this.argumentPlace());
    const found: T[] = [];
    await this.read(filter, limit ?? 0, (values) => {
      found.push(instanceOf<T>(this.mapping.entity, values));
      return limit === undefined || found.length < limit;
    });
    return found;
  }

  async exists(key: KeyInput<T>): Promise<boolean> {
    return (await call<number>(this.ctx.client, ['EXISTS', this.key(key)], this.place('exists'))) === 1;
  }

  /** The collection index's live members, read as find() reads them: what the database holds. */
  async count(where?: Partial<T>): Promise<number> {
    const filter = filterArgument(where, 'count()', this.argumentPlace());
    let n = 0;
    await this.read(filter, 0, () => {
      n += 1;
      return true;
    });
    return n;
  }

  async delete(key: KeyInput<T>, options?: DeleteOptions): Promise<boolean> {
    const conditional = await this.conditional.deleteIfVersion(key, options);
    if (conditional !== undefined) return conditional;
    return (await this.indexed<number>(['DEL', this.key(key)], this.place('delete'))) === 1;
  }

  /** PTTL in whole seconds, rounded up as the other stores do (a key with 1 ms left has 1 s). */
  async ttl(key: KeyInput<T>): Promise<number | null | undefined> {
    const ms = Number(await call(this.ctx.client, ['PTTL', this.key(key)], this.place('ttl')));
    if (ms === -2) return undefined;
    if (ms === -1) return null;
    return Math.max(0, Math.ceil(ms / 1000));
  }

  /** PEXPIRETIME: the instant Redis keeps (expiry-instant.ts); exact to the millisecond. */
  async expiresAt(key: KeyInput<T>): Promise<Date | null | undefined> {
    return readExpiryInstant(this.ctx.client, this.key(key), this.place('expiresAt'));
  }

  /** EXPIRE n, PEXPIREAT ms (at), PERSIST, EXPIRE … GT n (extend) or nothing (keep), on a key that exists: one script. */
  async setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean> {
    refuseSetTtlOnMember(this.mapping.entity, STORE);
    const target = this.key(key);
    const resolved = this.ttlOf(ttl, {});
    const done = await runScript(
      this.ctx.client,
      SET_TTL_SCRIPT,
      this.withIndex(target),
      [resolved.mode, amountOf(resolved)],
      this.place('setTtl'),
    );
    return done === 1;
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

  // findPage / iterate / deleteMany (issue 26): ./pages.ts
  /** A SCAN walk resumed from its cursor: unordered, pages may be short, a record may repeat (see ./pages.ts). */
  findPage(where?: Partial<T>, options?: PageOptions): Promise<Page<T>> {
    return redisPage<T>(this.pages(), where, options);
  }

  iterate(where?: Partial<T>, options?: IterateOptions): AsyncIterable<T> {
    return iteratePages<T>((w, o) => this.findPage(w, o), where, options, this.argumentPlace());
  }

  async deleteMany(where: Partial<T>, options?: DeleteManyOptions): Promise<number> {
    return redisDeleteMany(this.pages(), deleteManyRequest(where, options, this.argumentPlace()));
  }

  private pages(): RedisPages {
    return { client: this.ctx.client, prefix: this.ctx.prefix, mapping: this.mapping };
  }

  /** get()/getMany() with { touch } (issue 25): one atomic script per key (touch.ts). */
  async getTouched(keys: readonly KeyInput<T>[], touch: CheckedTouch): Promise<Array<T | undefined>> {
    keysArgument(keys, 'getMany()', this.argumentPlace());
    const names = keys.map((k) => this.key(k));
    const indexOf = (name: string) => this.indexKey(name);
    const texts = await readTouched(this.ctx.client, names, indexOf, touch, this.place('get (touch)'));
    return texts.map((text, i) => {
      const name = names[i] as string;
      return text === null ? undefined : this.materialise(name, parseStored(this.mapping, name, text));
    });
  }

  /** find() and count() read the same records: a key that is not lifespan's record fails both alike. */
  private read(where: Record<string, unknown>, limit: number, take: (values: Record<string, unknown>) => boolean) {
    return readCollection(this.ctx, this.mapping, where, limit, take, this.place('find/count (collection index)'));
  }

  /** A command on one record key, run with its collection index entry in one script. */
  private indexed<R>(command: readonly string[], place: { entity: string; operation: string }): Promise<R> {
    const { keys, args } = indexedCall(this.layout, this.mapping, command);
    return runScriptFor<R>(this.ctx.client, INDEXED_COMMAND_SCRIPT, keys, args, place);
  }

  private indexKey(key: string): string {
    return indexKeyOf(this.layout, this.mapping, key);
  }

  /** A record key and its collection index: the KEYS of the write scripts. */
  private withIndex(key: string): string[] {
    return [key, this.indexKey(key)];
  }

  private writeArgs(op: 'insert' | 'upsert', ttl: RedisTtl, value: string): string[] {
    return scriptArgs(op, ttl, value, this.keepCreatedAt);
  }

  private ttlOf(ttl: PerWriteTtl | undefined, record: object): RedisTtl {
    return redisTtl(this.mapping, recordWriteTtl(this.mapping.entity, ttl, STORE, record));
  }

  private key(key: KeyInput<T>): string {
    return keyOf(this.ctx.prefix, this.mapping, key as KeyInput<unknown>);
  }

  private materialise(key: string, stored: StoredRecord): T {
    return instanceOf<T>(this.mapping.entity, decodeRecord(this.mapping, key, stored));
  }

  private argumentPlace() {
    return { entity: this.mapping.entity.name, store: STORE };
  }

  private place(operation: string): { readonly entity: string; readonly operation: string } {
    // Made once per operation: every call names its place for an error it may meet.
    let place = this.places.get(operation);
    if (place === undefined) {
      place = { entity: this.mapping.entity.name, operation: `${operation} on '${this.mapping.collection}'` };
      this.places.set(operation, place);
    }
    return place;
  }
}

/** STORE_DUPLICATE_KEY for a record of `mapping`, from insert() or (with its outcome) a unit of work. */
export function duplicateKeyIn(mapping: KeyspaceMapping, hit: DuplicateHit, unitOfWork?: CommitOutcome): StoreError {
  return duplicateKey({ store: STORE, entity: mapping.entity, collection: mapping.collection, hit, unitOfWork });
}
