import { readExpiryInstant } from './write/expiry-instant';
import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import { entityArgument, filterArgument, findLimit, keysArgument, unknownMember } from '../../runtime/arguments';
import { conditionalWriteOptions } from '../../runtime/conditional-writes';
import { adoptVersion, withInitialVersion, withUpsertVersion } from '../../runtime/versioned-writes';
import { insertElseGet } from '../../runtime/get-or-insert';
import type { DeleteOptions, FindOptions, GetOrInsertResult, KeyInput, Repository, WriteOptions } from '../contract';
import { RelationalConditionalWrites } from './write/conditional-writes';
import type { DeleteManyOptions, IterateOptions, Page, PageOptions } from '../contract';
import { deleteManyRequest } from '../../runtime/delete-many';
import { iteratePages } from '../../runtime/pages';
import { relationalDeleteMany, relationalPage } from './read/pages';
import { keyText } from './codec';
import type { EntityTable } from './table/entity-table';
import type { BatchOp, Executor } from './drivers/executor';
import { checkWriteOptions } from './arguments';
import { RELATIONAL_STORE } from './options';
import { runSetTtl, runTtl } from './write/ttl-ops';
import {
  countWhere,
  deleteWhere,
  existsByKey,
  findWhere,
  selectByKey,
  selectByKeys,
  filterShape as shapeOf,
  type Filter,
} from './read/read-sql';
import { bind, type Statement } from './table/statement';
import { deleteOp, encodeKey, insertOps, upsertOps } from './write/write-ops';

/** getMany reads at most this many keys per statement, in a few fixed shapes padded to size. */
const KEY_BUCKETS = [1, 4, 16, 64, 256] as const;
const MAX_BUCKET = 256;

/**
 * Repository of one entity. Every read filters expired rows when TTL is emulated; hot paths run
 * statements built once per shape and prepared once per connection.
 */
export class RelationalRepository<T> implements Repository<T> {
  private getStatement: Statement | undefined;
  private readonly conditional: RelationalConditionalWrites;

  constructor(
    private readonly t: EntityTable,
    private readonly executor: Executor,
  ) {
    this.conditional = new RelationalConditionalWrites(t, executor);
  }

  insert(entity: T, options?: WriteOptions): Promise<void> {
    try {
      const { ttl } = checkWriteOptions(options, 'insert()');
      const instance = this.instance(entity, 'insert()');
      const record = withInitialVersion(this.t.entity, instance);
      const written = this.write(insertOps(this.t, record, ttl));
      // The caller's entity gets version 1 only once the row is stored (a refused insert leaves it).
      return record === instance ? written : written.then(() => adoptVersion(this.t.entity, instance, record));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  upsert(entity: T, options?: WriteOptions): Promise<void> {
    try {
      const { ttl } = checkWriteOptions(options, 'upsert()');
      const instance = this.instance(entity, 'upsert()');
      const record = withUpsertVersion(this.t.entity, instance);
      const written = this.write(upsertOps(this.t, record, ttl));
      return record === instance ? written : written.then(() => adoptVersion(this.t.entity, instance, record));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get(key: KeyInput<T>): Promise<T | undefined> {
    try {
      const t = this.t;
      const statement = (this.getStatement ??= selectByKey(t, t.nowMode));
      // On the database clock the key values are the whole parameter list: no context, no copy.
      const params = statement.keyOnly
        ? encodeKey(t, key)
        : bind(statement, { key: encodeKey(t, key), now: t.nowParam() });
      const sync = this.executor.trySync();
      if (sync) return Promise.resolve(this.instanceOfRow(sync.rowSync(statement, params)));
      return this.executor.rows(statement, params).then((rows) => this.instanceOfRow(rows[0]));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async getMany(keys: readonly KeyInput<T>[]): Promise<T[]> {
    keysArgument(keys, 'getMany()', { entity: this.t.entity.name, store: RELATIONAL_STORE });
    const t = this.t;
    const encoded = keys.map((k) => encodeKey(t, k));
    const found = new Map<string, T>();
    for (let start = 0; start < encoded.length; start += MAX_BUCKET) {
      const chunk = encoded.slice(start, start + MAX_BUCKET);
      const size = KEY_BUCKETS.find((b) => b >= chunk.length) ?? MAX_BUCKET;
      const statement = t.statement(`many:${size}`, () => selectByKeys(t, t.nowMode, size));
      const last = chunk[chunk.length - 1] as unknown[];
      const args: unknown[] = [];
      for (let i = 0; i < size; i++) args.push(...(chunk[i] ?? last));
      const rows = await this.executor.rows(statement, bind(statement, { args, now: t.nowParam() }));
      for (const row of rows) {
        const instance = t.instanceOfRow(row) as T & Record<string, unknown>;
        found.set(this.keyTextOf(instance), instance);
      }
    }
    const result: T[] = [];
    for (const key of keys) {
      const hit = found.get(this.keyTextOf(this.keyObject(key)));
      if (hit !== undefined) result.push(hit);
    }
    return result;
  }

  async find(where?: Partial<T>, options?: FindOptions): Promise<T[]> {
    const t = this.t;
    const { filters, args } = this.filters(where, 'find()');
    const limit = findLimit(options, this.place);
    const shape = `find:${shapeOf(filters)}:${limit === undefined ? '' : 'L'}`;
    const statement = t.statement(shape, () => findWhere(t, t.nowMode, filters, limit !== undefined));
    if (limit !== undefined) args.push(limit);
    const rows = await this.executor.rows(statement, bind(statement, { args, now: t.nowParam() }));
    return rows.map((row) => t.instanceOfRow(row) as T);
  }

  exists(key: KeyInput<T>): Promise<boolean> {
    try {
      const t = this.t;
      const statement = t.statement('exists', () => existsByKey(t, t.nowMode));
      return this.read(statement, bind(statement, { key: encodeKey(t, key), now: t.nowParam() }), hasRows);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async count(where?: Partial<T>): Promise<number> {
    const t = this.t;
    const { filters, args } = this.filters(where, 'count()');
    const statement = t.statement(`count:${shapeOf(filters)}`, () => countWhere(t, t.nowMode, filters));
    const rows = await this.executor.rows(statement, bind(statement, { args, now: t.nowParam() }));
    return Number(rows[0]?.[0] ?? 0);
  }

  delete(key: KeyInput<T>, options?: DeleteOptions): Promise<boolean> {
    if (options !== undefined) return this.deleteWithOptions(key, options);
    try {
      const op = deleteOp(this.t, encodeKey(this.t, key));
      const sync = this.executor.trySync();
      if (sync) return Promise.resolve(sync.runSync(op.statement, op.params) > 0);
      return this.executor.run(op.statement, op.params).then((changes) => changes > 0);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Deletes every live row matching the equality filters (a range delete: e.g. one partition of
   * a composite key); expired rows are skipped (purgeExpired removes them). Returns the count.
   */
  async deleteWhere(where: Partial<T>): Promise<number> {
    const t = this.t;
    const { filters, args } = this.filters(where, 'deleteWhere()');
    if (filters.length === 0) {
      throw new LifespanError(ErrorCodes.BAD_ARGUMENT, 'deleteWhere() needs at least one filter', {
        entity: t.entity.name,
        store: RELATIONAL_STORE,
        hint: 'pass the members to match, e.g. deleteWhere({ sensorId: "s1" })',
      });
    }
    const statement = t.statement(`delete-where:${shapeOf(filters)}`, () => deleteWhere(t, t.nowMode, filters));
    return this.executor.run(statement, bind(statement, { args, now: t.nowParam() }));
  }

  async ttl(key: KeyInput<T>): Promise<number | null | undefined> {
    return runTtl(this.t, this.executor, encodeKey(this.t, key));
  }

  /** The stored expires_at of the live row (write/expiry-instant.ts); exact. */
  async expiresAt(key: KeyInput<T>): Promise<Date | null | undefined> {
    return readExpiryInstant(this.t, this.executor, encodeKey(this.t, key), () => this.exists(key));
  }

  async setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean> {
    // A unique index that covers the expiry column could refuse the update.
    return runSetTtl(this.t, this.executor, encodeKey(this.t, key), ttl).catch((error: unknown) =>
      Promise.reject(this.t.duplicateOf(error)),
    );
  }

  // Conditional writes, get-or-insert and partial updates (write/conditional-writes.ts).
  update(entity: T, options?: WriteOptions): Promise<void> {
    return this.conditional.update(entity as object, options);
  }

  getOrInsert(entity: T, options?: WriteOptions): Promise<GetOrInsertResult<T>> {
    try {
      const checked = conditionalWriteOptions(options, 'getOrInsert()', this.t.entity, RELATIONAL_STORE);
      const instance = this.instance(entity, 'getOrInsert()') as T;
      const key = this.keyOf(instance);
      const place = { entity: this.t.entity, store: RELATIONAL_STORE, collection: this.t.spec.table };
      return insertElseGet(
        place,
        instance,
        () => this.insert(instance, checked),
        () => this.get(key),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  patch(key: KeyInput<T>, changes: Partial<T>, options?: WriteOptions): Promise<boolean> {
    return this.conditional.patch(key, changes, options);
  }

  private async deleteWithOptions(key: KeyInput<T>, options: DeleteOptions): Promise<boolean> {
    return (await this.conditional.deleteIfVersion(key, options)) ?? this.delete(key);
  }

  private keyOf(instance: T): KeyInput<T> {
    const values = instance as Record<string, unknown>;
    return Object.fromEntries(this.t.keyMembers.map((m) => [m, values[m]])) as KeyInput<T>;
  }

  // findPage / iterate / deleteMany (issue 26): ./read/pages.ts
  findPage(where?: Partial<T>, options?: PageOptions): Promise<Page<T>> {
    return relationalPage<T>(this.t, this.executor, where, options, (w) => this.filters(w, 'findPage()'));
  }

  iterate(where?: Partial<T>, options?: IterateOptions): AsyncIterable<T> {
    return iteratePages<T>((w, o) => this.findPage(w, o), where, options, this.place);
  }

  async deleteMany(where: Partial<T>, options?: DeleteManyOptions): Promise<number> {
    const request = deleteManyRequest(where, options, this.place);
    const built = this.filters(request.where as Partial<T>, 'deleteMany()');
    return relationalDeleteMany(this.t, this.executor, request, built);
  }

  /**
   * Runs the ops of one write in order (synchronously on SQLite: no other call interleaves; the
   * synchronous path chains no promise). A unique violation (the key on insert, another unique
   * index on insert or upsert) leaves here in the shared wording.
   */
  private write(ops: readonly BatchOp[]): Promise<void> {
    const sync = this.executor.trySync();
    if (!sync) return this.writeAsync(ops);
    try {
      for (const op of ops) {
        const changes = sync.runSync(op.statement, op.params);
        op.check?.(changes);
      }
    } catch (error) {
      return Promise.reject(this.t.duplicateOf(error));
    }
    return DONE;
  }

  private async writeAsync(ops: readonly BatchOp[]): Promise<void> {
    try {
      for (const op of ops) {
        const changes = await this.executor.run(op.statement, op.params);
        op.check?.(changes);
      }
    } catch (error) {
      throw this.t.duplicateOf(error);
    }
  }

  private read<R>(statement: Statement, params: unknown[], map: (rows: unknown[][]) => R): Promise<R> {
    const sync = this.executor.trySync();
    if (!sync) return this.executor.rows(statement, params).then(map);
    return Promise.resolve(map(sync.rowsSync(statement, params)));
  }

  private instanceOfRow(row: unknown[] | undefined): T | undefined {
    return row ? (this.t.instanceOfRow(row) as T) : undefined;
  }

  private get place() {
    return { entity: this.t.entity.name, store: RELATIONAL_STORE };
  }

  private instance(entity: T, call: string): object {
    return entityArgument(entity, call, this.t.entity, RELATIONAL_STORE);
  }

  private filters(where: Partial<T> | undefined, call: string): { filters: Filter[]; args: unknown[] } {
    const t = this.t;
    const filters: Filter[] = [];
    const args: unknown[] = [];
    for (const [member, value] of Object.entries(filterArgument(where, call, this.place))) {
      if (value === undefined) continue;
      const index = t.members.indexOf(member);
      if (index < 0) {
        throw unknownMember(member, t.members, { entity: t.entity.name, store: RELATIONAL_STORE });
      }
      const column = t.dataColumns[index]?.name as string;
      if (value === null) {
        filters.push({ column, isNull: true });
        continue;
      }
      filters.push({ column, isNull: false });
      args.push((t.encoders[index] as (v: unknown) => unknown)(value));
    }
    return { filters, args };
  }

  private keyObject(key: KeyInput<T>): Record<string, unknown> {
    const isObject = typeof key === 'object' && key !== null && !(key instanceof Date);
    return isObject ? (key as Record<string, unknown>) : { [this.t.keyMembers[0] as string]: key };
  }

  private keyTextOf(values: Record<string, unknown>): string {
    const t = this.t;
    return t.keyMembers
      .map((m) => keyText(t.dataColumns[t.members.indexOf(m)]?.fieldType ?? 'string', values[m]))
      .join('\u0000');
  }
}

const DONE: Promise<void> = Promise.resolve();

const hasRows = (rows: unknown[][]): boolean => rows.length > 0;
