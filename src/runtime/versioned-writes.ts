import { ErrorCodes } from '../error-codes';
import { StoreError } from '../errors';
import type { PerWriteTtl } from '../model/per-write-ttl';
import type { EntityModel } from '../model/types';
import { entityArgument } from './arguments';
import {
  conditionalWriteOptions,
  deleteOptions,
  expectedVersion,
  setVersion,
  versionConflict,
} from './conditional-writes';

/**
 * The skeletons of update(), delete({ ifVersion }) and patch() that are the same on every store:
 * the checks, the version arithmetic, the conflict and the retry loop. A provider passes only its
 * native conditional write.
 */

/** Where a conditional write runs: the entity, the store and the collection it lives in. */
export interface ConditionalPlace {
  readonly entity: EntityModel;
  readonly store: string;
  readonly collection: string;
}

/** What a provider's conditional update gets: the caller's entity and a copy holding the next version. */
export interface VersionedUpdate {
  readonly given: object;
  readonly ttl: PerWriteTtl | undefined;
  readonly expected: number;
  /** The members to store: the caller's values with the version set to expected + 1. */
  readonly next: Record<string, unknown>;
}

/**
 * update(): options, entity, expected version, the provider's write (false: the stored version
 * differs, or there is no live record), then the new version on the caller's entity, only once stored.
 */
export async function runUpdate(
  place: ConditionalPlace,
  entity: unknown,
  options: unknown,
  write: (update: VersionedUpdate) => Promise<boolean>,
): Promise<object> {
  const { entity: model, store } = place;
  const { ttl } = conditionalWriteOptions(options, 'update()', model, store);
  const given = entityArgument(entity, 'update()', model, store);
  const expected = expectedVersion(model, given, store);
  const next = { ...(given as Record<string, unknown>), [model.version as string]: expected + 1 };
  if (!(await write({ given, ttl, expected, next }))) throw conflictIn(place, 'update()', expected);
  setVersion(model, given, expected + 1);
  return given;
}

/** What delete({ ifVersion }) asks of a store: is a live record there, and delete it at a version. */
export interface VersionedDelete {
  exists(): Promise<boolean>;
  /** True when the live record of that version was deleted, false when there is none of it. */
  deleteAt(version: number): Promise<boolean>;
}

/**
 * delete({ ifVersion }); undefined when no ifVersion was given (the plain delete runs). Version 0
 * is no stored version: false when no live record is there, a conflict when one is.
 */
export async function runDeleteIfVersion(
  place: ConditionalPlace,
  options: unknown,
  ops: VersionedDelete,
): Promise<boolean | undefined> {
  const { ifVersion } = deleteOptions(options, place.entity, place.store);
  if (ifVersion === undefined) return undefined;
  if (ifVersion === 0) {
    if (await ops.exists()) throw conflictIn(place, 'delete()', 0);
    return false;
  }
  if (!(await ops.deleteAt(ifVersion))) throw conflictIn(place, 'delete()', ifVersion);
  return true;
}

/** A patch whose record keeps changing under it gives up after this many reads, on every store. */
export const PATCH_ATTEMPTS = 5;

/** One attempt of a read-then-conditional-write patch: written, no live record, or changed meanwhile (the driver's refusal, if any). */
export type PatchAttempt = 'written' | 'absent' | { readonly raced: unknown };

/**
 * patch() on a store that reads the record and writes it back on a condition: true once written,
 * false when there is no live record, STORE_WRITE_CONTENDED when every attempt met another write.
 */
export async function retryPatch(place: ConditionalPlace, attempt: () => Promise<PatchAttempt>): Promise<boolean> {
  let last: unknown;
  for (let n = 1; n <= PATCH_ATTEMPTS; n += 1) {
    const outcome = await attempt();
    if (typeof outcome === 'string') return outcome === 'written';
    last = outcome.raced;
  }
  return Promise.reject(
    new StoreError(
      ErrorCodes.STORE_WRITE_CONTENDED,
      `patch() on '${place.collection}': another write changed the record during each of ${PATCH_ATTEMPTS} attempts; nothing was written`,
      {
        entity: place.entity.name,
        store: place.store,
        hint: 'retry the patch() (a record written this often by other callers may need a backoff between tries)',
        cause: last,
      },
    ),
  );
}

/**
 * The record insert() / getOrInsert() / a unit of work store: a copy of the caller's entity with
 * version 1 (same class). The caller's entity gets version 1 only once the write succeeded
 * (insertedVersion), so a refused insert leaves it as it was.
 */
export function withInitialVersion<E extends object>(entity: EntityModel, instance: E): E {
  if (entity.version === null) return instance;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(instance) as object) as E, instance);
  (copy as Record<string, unknown>)[entity.version] = 1;
  return copy;
}

/**
 * upsert() of a versioned entity stores at least version 1 (0 stands for no stored version):
 * a copy with version 1 when the entity's is below it, else the entity itself.
 */
export function withUpsertVersion<E extends object>(entity: EntityModel, instance: E): E {
  if (entity.version === null) return instance;
  const current = (instance as Record<string, unknown>)[entity.version];
  return typeof current === 'number' && current >= 1 ? instance : withInitialVersion(entity, instance);
}

/** After a stored insert or upsert: the version the copy stored, onto the caller's entity. */
export function adoptVersion(entity: EntityModel, instance: object, stored: object): void {
  if (entity.version === null || stored === instance) return;
  setVersion(entity, instance, (stored as Record<string, number>)[entity.version] as number);
}

function conflictIn(place: ConditionalPlace, call: 'update()' | 'delete()', expected: number): StoreError {
  return versionConflict({ ...place, call, expected });
}
