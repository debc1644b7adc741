import { ErrorCodes } from '../error-codes';
import { LifespanError, StoreError } from '../errors';
import { showValue } from '../model/show-value';
import { keyMembers, type EntityModel } from '../model/types';
import type { DeleteOptions, WriteOptions } from '../providers/contract';
import { optionsArgument, unknownMember } from './arguments';

/**
 * What update(), delete({ ifVersion }), getOrInsert() and patch() check and raise the same way on
 * every store: their options, the version an entity carries, the changes of a patch and the
 * version conflict. Providers hold only the native conditional write.
 */

/** The @Version member, or VERSION_NOT_DECLARED naming what to declare. */
export function versionMember(entity: EntityModel, call: string, store: string): string {
  if (entity.version !== null) return entity.version;
  throw new LifespanError(ErrorCodes.VERSION_NOT_DECLARED, `${call} needs a @Version member on ${entity.name}`, {
    entity: entity.name,
    store,
    hint: `declare @Version() version = 0 (or .version(x => x.version)) on ${entity.name}; without one use upsert()`,
  });
}

/** A version as given (the entity's member, or ifVersion): a whole number from 0 (0: no stored version). */
export function versionValue(value: unknown, what: string, entity: EntityModel, store: string): number {
  // A record stored before @Version was declared has none: it counts as version 0 everywhere.
  if (value === null) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${what} is ${showValue(value)}, not a whole number from 0`, {
    entity: entity.name,
    member: entity.version ?? undefined,
    store,
    hint: 'pass the version read with the record (get() returns it; insert() stores 1)',
  });
}

/** The version update() expects stored: the entity's @Version member. */
export function expectedVersion(entity: EntityModel, instance: object, store: string): number {
  const member = versionMember(entity, 'update()', store);
  const value = readGuarded(() => (instance as Record<string, unknown>)[member], 'update()', entity, store);
  return versionValue(value ?? null, `update(): ${member}`, entity, store);
}

/** A stored version as read back: a missing one (a record stored before @Version) counts as 0. */
export function storedVersion(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return 0;
}

/** Sets the version on the caller's entity (insert: 1; update: the version it stored). */
export function setVersion(entity: EntityModel, instance: object, version: number): void {
  if (entity.version !== null) (instance as Record<string, unknown>)[entity.version] = version;
}

const NO_OPTIONS: WriteOptions = Object.freeze({});

/** The options of update()/getOrInsert()/patch(): `{ ttl }` or nothing; any other key is refused. */
export function conditionalWriteOptions(
  value: unknown,
  call: string,
  entity: EntityModel,
  store: string,
): WriteOptions {
  // Most calls pass none: nothing to check, nothing to allocate.
  if (value === undefined) return NO_OPTIONS;
  const options = optionsArgument<WriteOptions>(value, call, { entity: entity.name, store }, "{ ttl: '1h' }");
  refuseUnknownOptions(options, ['ttl'], call, entity, store);
  const ttl = readGuarded(() => options.ttl, call, entity, store);
  return ttl === undefined ? {} : { ttl };
}

/** delete()'s options: `{ ifVersion }` (only on an entity with @Version) or nothing. */
export function deleteOptions(value: unknown, entity: EntityModel, store: string): { ifVersion?: number } {
  const options = optionsArgument<DeleteOptions>(value, 'delete()', { entity: entity.name, store }, '{ ifVersion: 3 }');
  refuseUnknownOptions(options, ['ifVersion'], 'delete()', entity, store);
  const ifVersion = readGuarded(() => options.ifVersion, 'delete()', entity, store);
  if (ifVersion === undefined) return {};
  versionMember(entity, 'delete({ ifVersion })', store);
  return { ifVersion: versionValue(ifVersion, 'delete(): ifVersion', entity, store) };
}

function refuseUnknownOptions(
  options: object,
  known: readonly string[],
  call: string,
  entity: EntityModel,
  store: string,
): void {
  const unknown = readGuarded(() => Object.keys(options), call, entity, store).find((k) => !known.includes(k));
  if (unknown === undefined) return;
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} has no option ${showValue(unknown)}`, {
    entity: entity.name,
    store,
    hint: `its options are ${known.join(', ')}`,
  });
}

/**
 * The members a patch changes, checked before anything is sent: an object of member values,
 * at least one; an unknown member is UNKNOWN_MEMBER, a key or @Version member PATCH_MEMBER_REFUSED.
 * Members given as undefined are left out (as in a find() filter). Values are checked by the store's codec.
 */
export function patchChanges(entity: EntityModel, changes: unknown, store: string): Record<string, unknown> {
  const place = { entity: entity.name, store };
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes) || changes instanceof Date) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `patch() got ${showValue(changes)} as its changes`, {
      ...place,
      hint: 'pass an object of the members to change, e.g. patch(key, { member: value })',
    });
  }
  const members = entity.fields.map((f) => f.member);
  const keys = keyMembers(entity);
  const checked: Record<string, unknown> = {};
  for (const [member, value] of readGuarded(() => Object.entries(changes), 'patch()', entity, store)) {
    if (value === undefined) continue;
    if (!members.includes(member)) throw unknownMember(member, members, place);
    if (keys.includes(member) || member === entity.version) {
      const role = keys.includes(member) ? 'a key member (it identifies the record)' : 'the @Version member';
      throw new LifespanError(ErrorCodes.PATCH_MEMBER_REFUSED, `patch() cannot change '${member}': it is ${role}`, {
        ...place,
        member,
        hint: keys.includes(member)
          ? 'insert the record under the new key and delete() the old one'
          : 'leave it out: update() checks and increments the version',
      });
    }
    checked[member] = value;
  }
  if (Object.keys(checked).length === 0) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, 'patch() got no member to change', {
      ...place,
      hint: 'pass at least one member, e.g. patch(key, { member: value })',
    });
  }
  return checked;
}

/**
 * Reads an argument the caller built (options, changes, an entity member): a Proxy or a throwing
 * getter is BAD_ARGUMENT naming the call, never a raw TypeError.
 */
export function readGuarded<R>(read: () => R, call: string, entity: EntityModel, store: string): R {
  try {
    return read();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} could not read its argument (${showValue(why)})`, {
      entity: entity.name,
      store,
      hint: 'pass plain objects (no Proxy or getter that throws) as the entity, options and changes',
    });
  }
}

export interface VersionConflictFacts {
  readonly store: string;
  readonly entity: EntityModel;
  readonly collection: string;
  readonly call: 'update()' | 'delete()';
  readonly expected: number;
  readonly cause?: unknown;
}

/** STORE_VERSION_CONFLICT, one wording on every store (key values stay out of it: they may be secrets). */
export function versionConflict(facts: VersionConflictFacts): StoreError {
  const { entity, expected } = facts;
  const found =
    expected === 0
      ? `no live record of '${facts.collection}' without a stored version is there (version 0 is a record stored before @Version was declared; insert() and upsert() store 1)`
      : `the stored live record of '${facts.collection}' is not version ${expected} (another write changed it, or it was deleted or expired)`;
  return new StoreError(ErrorCodes.STORE_VERSION_CONFLICT, `${facts.call}: ${found}; nothing was written`, {
    entity: entity.name,
    member: entity.version ?? undefined,
    store: facts.store,
    hint:
      expected === 0
        ? 'insert() a new record (it stores version 1), or get() the stored one and update() that'
        : 'get() the record again, apply the change to what it returns, and retry',
    cause: facts.cause,
  });
}
