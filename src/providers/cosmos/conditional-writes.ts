import type { ItemDefinition, PatchOperation } from '@azure/cosmos';
import type { ResolvedWriteTtl } from '../../model/per-write-ttl';
import { entityArgument } from '../../runtime/arguments';
import { resolveWriteTtl } from '../../model/per-write-ttl';
import { keyMembers } from '../../model/types';
import {
  conditionalWriteOptions,
  patchChanges,
  storedVersion,
  versionConflict,
} from '../../runtime/conditional-writes';
import {
  adoptVersion,
  retryPatch,
  runDeleteIfVersion,
  runUpdate,
  withInitialVersion,
  type ConditionalPlace,
} from '../../runtime/versioned-writes';
import { getOrInsertContended } from '../../runtime/get-or-insert';
import { instanceOf, keyValues, clientNow, stampTimestamps, valuesOf } from '../../runtime/entity-values';
import { writeTtlFor } from '../../runtime/write-ttl';
import type { StampedWriteTtl } from '../../runtime/write-instant';
import type { GetOrInsertResult, KeyInput } from '../contract';
import type { ItemAddress } from './codec';
import type { EntityAccess } from './context';
import { CONFLICT, NOT_FOUND, PRECONDITION_FAILED, statusOf, wrapDriverError } from './driver-errors';
import { isExpired, keptTtl } from './item-expiry';
import { itemWrite, ttlPatch, type CurrentItem } from './item-writes';
import { STORE } from './semantics';

/** getOrInsert's reads and writes after a concurrent change (an etag mismatch, a create race) retry this often. */
const ATTEMPTS = 5;

/** The service's limit of operations in one patch request (https://learn.microsoft.com/azure/cosmos-db/partial-document-update). */
const MAX_PATCH_OPERATIONS = 10;

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

  update(entity: T, options: unknown): Promise<void> {
    const { entity: model, codec } = this.access;
    return runUpdate(this.place, entity, options, async ({ ttl, expected, next }) => {
      const resolved = await this.stamp(writeTtlFor(model, ttl, STORE));
      const values = stampTimestamps(model, valuesOf(model, next), clientNow, false);
      const address = codec.address(values);
      const current = await this.live(address);
      if (!current || this.versionOf(current) !== expected) return false;
      // An upsert decided over the item read: its @CreatedAt and, for 'keep'/'extend', its expiry carried over.
      const write = itemWrite('upsert', codec.encode(values), resolved, current, codec.preservedOnUpdate);
      try {
        await this.replace(address, write.body, current);
        return true;
      } catch (error) {
        if (raced(error)) throw this.conflict('update()', expected, error);
        throw this.driverError(error, 'updating');
      }
    }).then(() => undefined);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const address = (): ItemAddress => this.address(key);
    return runDeleteIfVersion(this.place, options, {
      exists: async () => (await this.live(address())) !== undefined,
      deleteAt: async (version) => {
        const current = await this.live(address());
        if (!current || this.versionOf(current) !== version) return false;
        try {
          await this.access.container.item(address().id, address().partition).delete({
            accessCondition: { type: 'IfMatch', condition: current.raw._etag },
          });
          return true;
        } catch (error) {
          if (raced(error)) throw this.conflict('delete()', version, error);
          throw this.driverError(error, 'deleting');
        }
      },
    });
  }

  /**
   * A create: the service lets one of two racing callers create the id (409 for the other). A due
   * item holding the id is replaced on its etag, so only one caller replaces it either.
   */
  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { entity: model, codec } = this.access;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', model, STORE);
    const given = entityArgument(entity, 'getOrInsert()', model, STORE) as T & object;
    const resolved = await this.stamp(writeTtlFor(model, ttl, STORE));
    const record = withInitialVersion(model, given);
    const values = stampTimestamps(model, valuesOf(model, record), clientNow, true);
    const body = itemWrite('insert', codec.encode(values), resolved).body as ItemDefinition;
    const address = codec.address(values);
    let last: unknown;
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const stored = await this.current(address);
      try {
        if (!stored) await this.access.container.items.create(body);
        else if (this.isDue(stored)) await this.replace(address, body, stored);
        else return { entity: instanceOf<T>(model, codec.decode(stored.raw)), inserted: false };
        adoptVersion(model, given, record);
        return { entity: given, inserted: true };
      } catch (error) {
        if (!raced(error)) throw this.driverError(error, 'writing');
        last = error;
      }
    }
    throw getOrInsertContended(this.place, last);
  }

  /**
   * A patch of the changed properties on the etag read. Every Cosmos write resets _ts, so 'keep'
   * (the default) also sets /ttl to the item's remaining seconds: its expiry instant stays (to
   * the second) instead of the countdown restarting. Over the service's limit of patch operations
   * per request, the item read is replaced on its etag instead (the same expiry rule).
   */
  async patch(key: KeyInput<T>, changes: unknown, options: unknown): Promise<boolean> {
    const { entity: model, codec } = this.access;
    const { ttl } = conditionalWriteOptions(options, 'patch()', model, STORE);
    const members = patchChanges(model, changes, STORE);
    // No ttl given is the implicit 'keep' of every patch: no per-write declaration needed for it.
    const resolved = await this.stamp(ttl === undefined ? resolveWriteTtl('keep') : writeTtlFor(model, ttl, STORE));
    const address = this.address(key);
    return retryPatch(this.place, async () => {
      const current = await this.live(address);
      if (!current) return 'absent';
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
        if (operations.length <= MAX_PATCH_OPERATIONS) {
          await this.access.container.item(address.id, address.partition).patch(operations, {
            accessCondition: { type: 'IfMatch', condition: current.raw._etag },
          });
        } else {
          await this.replace(
            address,
            itemWrite('upsert', body, resolved, current, codec.preservedOnUpdate).body,
            current,
          );
        }
        return 'written';
      } catch (error) {
        if (statusOf(error) === NOT_FOUND) return 'absent';
        if (statusOf(error) === PRECONDITION_FAILED) return { raced: error };
        throw this.driverError(error, 'patching');
      }
    });
  }

  private async replace(address: ItemAddress, body: object, current: CurrentItem): Promise<void> {
    await this.access.container.item(address.id, address.partition).replace(body as ItemDefinition, {
      accessCondition: { type: 'IfMatch', condition: current.raw._etag },
    });
  }

  /** The driver error in the shared wording; the entity's key members named, never its key values. */
  private driverError(error: unknown, doing: string): unknown {
    const { entity } = this.access;
    const members = keyMembers(entity).join(', ');
    return wrapDriverError(error, `${doing} ${entity.name} (by ${members})`, { entity: entity.name });
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
    return storedVersion(this.access.codec.decode(current.raw)[this.access.entity.version as string]);
  }

  private address(key: KeyInput<T>): ItemAddress {
    return this.access.codec.address(keyValues(this.access.entity, key, STORE));
  }

  private get place(): ConditionalPlace {
    return { entity: this.access.entity, store: STORE, collection: this.access.codec.layout.container };
  }

  private conflict(call: 'update()' | 'delete()', expected: number, cause?: unknown) {
    return versionConflict({ ...this.place, call, expected, cause });
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
