import type { ItemDefinition, PatchOperation } from '@azure/cosmos';
import type { ResolvedWriteTtl } from '../../model/per-write-ttl';
import { entityArgument } from '../../runtime/arguments';
import {
  conditionalWriteOptions,
  deleteOptions,
  expectedVersion,
  patchChanges,
  setVersion,
  versionConflict,
} from '../../runtime/conditional-writes';
import { duplicateKey } from '../../runtime/key-errors';
import { instanceOf, keyValues, stampTimestamps, valuesOf } from '../../runtime/entity-values';
import { writeTtlFor } from '../../runtime/write-ttl';
import type { StampedWriteTtl } from '../../runtime/write-instant';
import type { GetOrInsertResult, KeyInput } from '../contract';
import type { ItemAddress } from './codec';
import type { EntityAccess } from './context';
import { CONFLICT, NOT_FOUND, PRECONDITION_FAILED, statusOf, wrapDriverError } from './driver-errors';
import { isExpired, keptTtl } from './item-expiry';
import { itemWrite, ttlPatch, type CurrentItem } from './item-writes';
import { STORE } from './semantics';

/** Reads and writes after a concurrent change (an etag mismatch, a create race) retry this often. */
const ATTEMPTS = 5;

/**
 * update(), delete({ ifVersion }), getOrInsert() and patch(): the item is read (with the server's
 * clock and the container setting, so a due item the service has not deleted yet counts as absent:
 * version 0), then written with If-Match on the etag read, so a write that landed in between makes
 * the service refuse this one (412) instead of losing it.
 */
export class CosmosConditionalWrites<T> {
  constructor(
    private readonly access: EntityAccess,
    private readonly current: (address: ItemAddress) => Promise<CurrentItem | undefined>,
    /** `{ at }` turned into the item ttl sent now (the estimated server clock: expiry-instant.ts). */
    private readonly stamp: (ttl: ResolvedWriteTtl) => Promise<StampedWriteTtl>,
  ) {}

  async update(entity: T, options: unknown): Promise<void> {
    const { entity: model, codec } = this.access;
    const { ttl } = conditionalWriteOptions(options, 'update()', model, STORE);
    const given = entityArgument(entity, 'update()', model, STORE);
    const expected = expectedVersion(model, given, STORE);
    const resolved = await this.stamp(writeTtlFor(model, ttl, STORE));
    const values = stampTimestamps(model, valuesOf(model, given), new Date(), false);
    values[model.version as string] = expected + 1;
    const address = codec.address(values);
    const current = await this.live(address);
    if (!current || this.versionOf(current) !== expected) throw this.conflict('update()', expected);
    // An upsert decided over the item read: its @CreatedAt and, for 'keep'/'extend', its expiry carried over.
    const write = itemWrite('upsert', codec.encode(values), resolved, current, codec.preservedOnUpdate);
    try {
      await this.access.container.item(address.id, address.partition).replace(write.body as ItemDefinition, {
        accessCondition: { type: 'IfMatch', condition: current.raw._etag },
      });
    } catch (error) {
      if (raced(error)) throw this.conflict('update()', expected, error);
      throw wrapDriverError(error, `updating ${model.name} '${address.id}'`, { entity: model.name });
    }
    setVersion(model, given, expected + 1);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  async deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const { entity: model } = this.access;
    const { ifVersion } = deleteOptions(options, model, STORE);
    if (ifVersion === undefined) return undefined;
    const address = this.address(key);
    const current = await this.live(address);
    if (ifVersion === 0) {
      if (current) throw this.conflict('delete()', 0);
      return false;
    }
    if (!current || this.versionOf(current) !== ifVersion) throw this.conflict('delete()', ifVersion);
    try {
      await this.access.container.item(address.id, address.partition).delete({
        accessCondition: { type: 'IfMatch', condition: current.raw._etag },
      });
      return true;
    } catch (error) {
      if (raced(error)) throw this.conflict('delete()', ifVersion, error);
      throw wrapDriverError(error, `deleting ${model.name} '${address.id}'`, { entity: model.name });
    }
  }

  /**
   * A create: the service lets one of two racing callers create the id (409 for the other). A due
   * item holding the id is replaced on its etag, so only one caller replaces it either.
   */
  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { entity: model, codec } = this.access;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', model, STORE);
    const given = entityArgument(entity, 'getOrInsert()', model, STORE) as T;
    const resolved = await this.stamp(writeTtlFor(model, ttl, STORE));
    setVersion(model, given as object, 1);
    const values = stampTimestamps(model, valuesOf(model, given as object), new Date(), true);
    const body = itemWrite('insert', codec.encode(values), resolved).body as ItemDefinition;
    const address = codec.address(values);
    let last: unknown;
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const stored = await this.current(address);
      try {
        if (!stored) await this.access.container.items.create(body);
        else if (this.isDue(stored)) {
          await this.access.container
            .item(address.id, address.partition)
            .replace(body, { accessCondition: { type: 'IfMatch', condition: stored.raw._etag } });
        } else return { entity: instanceOf<T>(model, codec.decode(stored.raw)), inserted: false };
        return { entity: given, inserted: true };
      } catch (error) {
        if (!raced(error))
          throw wrapDriverError(error, `writing ${model.name} '${address.id}'`, { entity: model.name });
        last = error;
      }
    }
    throw duplicateKey({ store: STORE, entity: model, collection: codec.layout.container, hit: 'key', cause: last });
  }

  /**
   * A patch of the changed properties on the etag read. Every Cosmos write resets _ts, so 'keep'
   * (the default) also sets /ttl to the item's remaining seconds: its expiry instant stays (to
   * the second) instead of the countdown restarting.
   */
  async patch(key: KeyInput<T>, changes: unknown, options: unknown): Promise<boolean> {
    const { entity: model, codec } = this.access;
    const { ttl } = conditionalWriteOptions(options, 'patch()', model, STORE);
    const members = patchChanges(model, changes, STORE);
    const resolved = await this.stamp(writeTtlFor(model, ttl ?? 'keep', STORE));
    const address = this.address(key);
    for (let attempt = 1; ; attempt += 1) {
      const current = await this.live(address);
      if (!current) return false;
      const values = { ...codec.decode(current.raw), ...members };
      if (model.version !== null) values[model.version] = this.versionOf(current) + 1;
      const body = codec.encode(values);
      const changed = [...Object.keys(members), ...(model.version !== null ? [model.version] : [])];
      const operations: PatchOperation[] = changed.map((member) => {
        const name = codec.storedName(member);
        return { op: 'set', path: `/${name}`, value: body[name] };
      });
      operations.push(...expiryOperations(resolved, current));
      try {
        await this.access.container.item(address.id, address.partition).patch(operations, {
          accessCondition: { type: 'IfMatch', condition: current.raw._etag },
        });
        return true;
      } catch (error) {
        if (statusOf(error) === NOT_FOUND) return false;
        if (statusOf(error) !== PRECONDITION_FAILED || attempt >= ATTEMPTS) {
          throw wrapDriverError(error, `patching ${model.name} '${address.id}'`, { entity: model.name });
        }
      }
    }
  }

  /** The item when it is stored and not due (whatever hideExpired says: due is absent here). */
  private async live(address: ItemAddress): Promise<CurrentItem | undefined> {
    const current = await this.current(address);
    return current && !this.isDue(current) ? current : undefined;
  }

  private isDue(current: CurrentItem): boolean {
    return isExpired(current.raw, current.containerTtl, current.serverNow);
  }

  private versionOf(current: CurrentItem): number {
    const value = this.access.codec.decode(current.raw)[this.access.entity.version as string];
    return typeof value === 'number' ? value : 0;
  }

  private address(key: KeyInput<T>): ItemAddress {
    return this.access.codec.address(keyValues(this.access.entity, key, STORE));
  }

  private conflict(call: 'update()' | 'delete()', expected: number, cause?: unknown) {
    const { entity, codec } = this.access;
    return versionConflict({ store: STORE, entity, collection: codec.layout.container, call, expected, cause });
  }
}

/** The /ttl operations of a patch: 'keep' writes the remaining seconds (a patch resets _ts). */
function expiryOperations(ttl: StampedWriteTtl, current: CurrentItem): PatchOperation[] {
  if (ttl.kind !== 'keep') return ttlPatch(ttl, current) ?? [];
  const kept = keptTtl(current.raw, current.containerTtl, current.serverNow);
  return kept === undefined ? [] : [{ op: 'set', path: '/ttl', value: kept }];
}

/** Another writer changed, created or deleted the item since it was read. */
function raced(error: unknown): boolean {
  return [CONFLICT, PRECONDITION_FAILED, NOT_FOUND].includes(statusOf(error) ?? 0);
}
