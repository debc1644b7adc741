import type { ItemDefinition } from '@azure/cosmos';
import { StoreError } from '../../errors';
import type { PerWriteTtl, ResolvedWriteTtl } from '../../model/per-write-ttl';
import { instanceOf, keyValues, clientNow, stampTimestamps, valuesOf } from '../../runtime/entity-values';
import { entityArgument, filterArgument, findLimit, keysArgument, writeOptions } from '../../runtime/arguments';
import { duplicateKey } from '../../runtime/key-errors';
import { recordWriteTtl, refuseSetTtlOnMember } from '../../runtime/write-instant';
import { writeTtlFor } from '../../runtime/write-ttl';
import { adoptVersion, withInitialVersion, withUpsertVersion } from '../../runtime/versioned-writes';
import type { DeleteOptions, FindOptions, GetOrInsertResult, KeyInput, Repository, WriteOptions } from '../contract';
import { CosmosConditionalWrites } from './conditional-writes';
import type { CosmosContext, EntityAccess } from './context';
import { CONFLICT, driverCall, NOT_FOUND, PRECONDITION_FAILED, statusOf, wrapDriverError } from './driver-errors';
import { itemExpiryInstant, stampedTtl } from './expiry-instant';
import { expiredFilter, isExpired, remainingSeconds } from './item-expiry';
import type { ItemAddress } from './codec';
import { readItem, type StoredItem } from './item-reader';
import { itemWrite, needsCurrentItem, ttlPatch, type CurrentItem, type ItemWrite } from './item-writes';
import { entityQuery } from './query';
import { STORE } from './semantics';
import type { DeleteManyOptions, IterateOptions, Page, PageOptions } from '../contract';
import { deleteManyRequest } from '../../runtime/delete-many';
import { iteratePages } from '../../runtime/pages';
import { cosmosDeleteMany, cosmosPage, type CosmosPages } from './pages';

/** Reads and writes after a concurrent change (etag mismatch, a create race) retry this often. */
const WRITE_ATTEMPTS = 5;

export class CosmosRepository<T> implements Repository<T> {
  private readonly conditional: CosmosConditionalWrites<T>;

  constructor(
    private readonly context: CosmosContext,
    private readonly access: EntityAccess,
  ) {
    this.conditional = new CosmosConditionalWrites<T>(
      access,
      (address) => this.current(address),
      (ttl) => this.stamped(ttl),
    );
  }

  private get name(): string {
    return this.access.entity.name;
  }

  private get place() {
    return { entity: this.name, store: STORE };
  }

  async insert(entity: T, options?: WriteOptions): Promise<void> {
    return this.write('insert', entity, writeOptions(options, 'insert()', STORE).ttl);
  }

  async upsert(entity: T, options?: WriteOptions): Promise<void> {
    return this.write('upsert', entity, writeOptions(options, 'upsert()', STORE).ttl);
  }

  async get(key: KeyInput<T>): Promise<T | undefined> {
    const stored = await this.readLive(this.address(key));
    return stored && instanceOf<T>(this.access.entity, this.access.codec.decode(stored.raw));
  }

  async getMany(keys: readonly KeyInput<T>[]): Promise<T[]> {
    keysArgument(keys, 'getMany()', this.place);
    const found = await Promise.all(keys.map((key) => this.get(key)));
    return found.filter((item) => item !== undefined) as T[];
  }

  async find(where?: Partial<T>, options?: FindOptions): Promise<T[]> {
    const filter = filterArgument(where, 'find()', this.place);
    const limit = findLimit(options, this.place);
    const spec = entityQuery(this.access.codec, filter, { limit, exclude: await this.hiddenFilter() });
    const { resources } = await driverCall(`querying ${this.name}`, { entity: this.name }, () =>
      this.access.container.items.query<Record<string, unknown>>(spec).fetchAll(),
    );
    return resources.map((raw) => instanceOf<T>(this.access.entity, this.access.codec.decode(raw)));
  }

  async exists(key: KeyInput<T>): Promise<boolean> {
    return (await this.readLive(this.address(key))) !== undefined;
  }

  async count(where?: Partial<T>): Promise<number> {
    const filter = filterArgument(where, 'count()', this.place);
    const spec = entityQuery(this.access.codec, filter, { count: true, exclude: await this.hiddenFilter() });
    const { resources } = await driverCall(`counting ${this.name}`, { entity: this.name }, () =>
      this.access.container.items.query<number>(spec).fetchAll(),
    );
    return resources.reduce((sum, n) => sum + n, 0);
  }

  async delete(key: KeyInput<T>, options?: DeleteOptions): Promise<boolean> {
    const conditional = await this.conditional.deleteIfVersion(key, options);
    if (conditional !== undefined) return conditional;
    const address = this.address(key);
    let live = true;
    if (this.context.hideExpired || this.access.codec.layout.shared) {
      const stored = await readItem(this.access, address);
      if (!stored) return false;
      live = !(await this.expired(stored));
    }
    try {
      await this.access.container.item(address.id, address.partition).delete();
      return live;
    } catch (error) {
      if (statusOf(error) === NOT_FOUND) return false;
      throw wrapDriverError(error, `deleting ${this.name} '${address.id}'`, { entity: this.name });
    }
  }

  async ttl(key: KeyInput<T>): Promise<number | null | undefined> {
    const stored = await readItem(this.access, this.address(key));
    if (!stored) return undefined;
    const left = remainingSeconds(stored.raw, await this.containerTtl(), stored.serverNow);
    if (left === null) return null;
    if (left > 0) return left;
    // Due but still stored (a real account hides it from queries until deleted): 0, or absent with hideExpired.
    return this.context.hideExpired ? undefined : 0;
  }

  async setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean> {
    refuseSetTtlOnMember(this.access.entity, STORE);
    const resolved = await this.stamped(writeTtlFor(this.access.entity, ttl, STORE));
    const address = this.address(key);
    for (let attempt = 1; ; attempt += 1) {
      const current = await this.current(address);
      if (!current || (this.context.hideExpired && (await this.expired(current)))) return false;
      const operations = ttlPatch(resolved, current);
      if (!operations) return true;
      try {
        await this.access.container.item(address.id, address.partition).patch(operations, {
          accessCondition: { type: 'IfMatch', condition: current.raw._etag },
        });
        return true;
      } catch (error) {
        const status = statusOf(error);
        if (status === NOT_FOUND) return false;
        if (status !== PRECONDITION_FAILED || attempt >= WRITE_ATTEMPTS) {
          throw this.writeError(error, `setting the ttl of ${this.name} '${address.id}'`);
        }
      }
    }
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
  /** The query's continuation token: a page may hold fewer items than asked (see ./pages.ts). */
  findPage(where?: Partial<T>, options?: PageOptions): Promise<Page<T>> {
    return cosmosPage<T>(this.pages(), where, options);
  }

  iterate(where?: Partial<T>, options?: IterateOptions): AsyncIterable<T> {
    return iteratePages<T>((w, o) => this.findPage(w, o), where, options, this.place);
  }

  async deleteMany(where: Partial<T>, options?: DeleteManyOptions): Promise<number> {
    return cosmosDeleteMany(this.pages(), deleteManyRequest(where, options, this.place));
  }

  private pages(): CosmosPages {
    return { access: this.access, hidden: () => this.hiddenFilter() };
  }

  /** _ts + the effective ttl of the stored item (expiry-instant.ts); a due item hidden by hideExpired is absent. */
  async expiresAt(key: KeyInput<T>): Promise<Date | null | undefined> {
    const stored = await this.readLive(this.address(key));
    return stored && itemExpiryInstant(stored.raw, await this.containerTtl());
  }

  private async write(mode: 'insert' | 'upsert', instance: T, requested: PerWriteTtl | undefined): Promise<void> {
    const { entity, codec } = this.access;
    const given = entityArgument(instance, `${mode}()`, entity, STORE);
    const record = mode === 'insert' ? withInitialVersion(entity, given) : withUpsertVersion(entity, given);
    const values = stampTimestamps(entity, valuesOf(entity, record), clientNow, mode === 'insert');
    const ttl = await this.stamped(recordWriteTtl(entity, requested, STORE, values));
    const body = codec.encode(values);
    const address = codec.address(values);
    const preserved = codec.preservedOnUpdate;
    for (let attempt = 1; ; attempt += 1) {
      const current = needsCurrentItem(mode, ttl, preserved) ? await this.current(address) : undefined;
      const write = itemWrite(mode, body, ttl, current, preserved);
      try {
        await this.send(write, address);
        adoptVersion(entity, given, record);
        return;
      } catch (error) {
        const status = statusOf(error);
        // A Create that meets an existing id is the key; a 409 on an upsert or replace is a unique
        // key policy (an upsert's Create, made after reading no item, meets a racing write: retried).
        if (status === CONFLICT && (mode === 'insert' || write.op !== 'create')) {
          const hit = write.op === 'create' ? 'key' : 'unique-constraint';
          throw duplicateKey({ store: STORE, entity, collection: codec.layout.container, hit, cause: error });
        }
        // An upsert that read the item first: a concurrent write changed, created or deleted it meanwhile.
        const raced = write.op !== 'upsert' && [CONFLICT, PRECONDITION_FAILED, NOT_FOUND].includes(status ?? 0);
        if (!raced || attempt >= WRITE_ATTEMPTS) throw this.writeError(error, `writing ${this.name} '${address.id}'`);
      }
    }
  }

  private async send(write: ItemWrite, address: ItemAddress): Promise<void> {
    const items = this.access.container.items;
    const body = write.body as ItemDefinition;
    if (write.op === 'create') await items.create(body);
    else if (write.op === 'upsert') await items.upsert(body);
    else {
      await this.access.container
        .item(address.id, address.partition)
        .replace(body, { accessCondition: { type: 'IfMatch', condition: write.etag } });
    }
  }

  private writeError(error: unknown, action: string): Error {
    if (statusOf(error) === PRECONDITION_FAILED) {
      return new StoreError(
        'COSMOS_WRITE_CONTENDED',
        `${action}: the item kept changing during ${WRITE_ATTEMPTS} attempts`,
        {
          entity: this.name,
          store: STORE,
          hint: 'other writers update this item continuously; retry later',
          cause: error,
        },
      );
    }
    return wrapDriverError(error, action, { entity: this.name });
  }

  private address(key: KeyInput<T>): ItemAddress {
    return this.access.codec.address(keyValues(this.access.entity, key, STORE));
  }

  private async current(address: ItemAddress): Promise<CurrentItem | undefined> {
    const stored = await readItem(this.access, address);
    return stored && { ...stored, containerTtl: await this.containerTtl() };
  }

  private async readLive(address: ItemAddress): Promise<StoredItem | undefined> {
    const stored = await readItem(this.access, address);
    if (!stored || !this.context.hideExpired) return stored;
    return (await this.expired(stored)) ? undefined : stored;
  }

  private async expired(stored: StoredItem): Promise<boolean> {
    return isExpired(stored.raw, await this.containerTtl(), stored.serverNow);
  }

  /** hideExpired: the items to leave out, judged by the server clock (the one point reads use). */
  private async hiddenFilter() {
    if (!this.context.hideExpired) return null;
    const containerTtl = await this.containerTtl();
    return expiredFilter(containerTtl, await this.context.serverNowSeconds(this.access.codec.layout.container));
  }

  /** `{ at }` as the item ttl, by the server clock (expiry-instant.ts). */
  private stamped(ttl: ResolvedWriteTtl) {
    return stampedTtl(this.context, this.access.codec.layout.container, this.access.entity, ttl);
  }

  private containerTtl() {
    return this.context.containerTtl(this.access.codec.layout.container);
  }
}
