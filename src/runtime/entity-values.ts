import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import { showValue } from '../model/show-value';
import { keyMembers, type EntityModel } from '../model/types';
import type { KeyInput } from '../providers/contract';
import { keyIncomplete } from './key-errors';

/** Member → value of every field of an instance (members not in the model are not stored). */
export function valuesOf(entity: EntityModel, instance: object): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of entity.fields) values[field.member] = readMember(instance, field.member, entity.name);
  return values;
}

/** One member of a caller's object; a getter (or proxy trap) that throws is a typed error, not a crash mid-write. */
export function readMember(source: object, member: string, entity: string, store?: string): unknown {
  try {
    return (source as Record<string, unknown>)[member];
  } catch (error) {
    throw new LifespanError(
      ErrorCodes.VALUE_INVALID,
      `reading member '${member}' threw: ${showValue(error instanceof Error ? error.message : error)}`,
      { entity, member, store, hint: 'pass an object whose members can be read' },
    );
  }
}

/** A real instance of the entity class (prototype methods work), filled without running its constructor. */
export function instanceOf<T>(entity: EntityModel, values: Record<string, unknown>): T {
  const instance = Object.create(entity.target.prototype as object) as Record<string, unknown>;
  for (const field of entity.fields) {
    if (field.member in values) instance[field.member] = values[field.member];
  }
  return instance as T;
}

/** Normalises a key argument to member → value, checking every key member is present. */
export function keyValues<T>(entity: EntityModel, key: KeyInput<T>, store: string): Record<string, unknown> {
  const members = keyMembers(entity);
  if (key === null || key === undefined) throw keyIncomplete(entity, { kind: 'absent', given: key }, store);
  const isObjectKey = typeof key === 'object' && !(key instanceof Date);
  if (!isObjectKey) {
    if (members.length !== 1) throw keyIncomplete(entity, { kind: 'single-value' }, store);
    return { [members[0] as string]: key };
  }
  const given = key as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const member of members) {
    const value = readMember(given, member, entity.name, store);
    if (value === undefined || value === null) throw keyIncomplete(entity, { kind: 'missing-member', member }, store);
    values[member] = value;
  }
  return values;
}

/**
 * Stamps @CreatedAt when the value is missing or still the `new Date(0)` placeholder (on every
 * write: an upsert may create the record, and a placeholder would make a TTL counting from it
 * expire at once), and @UpdatedAt on every write. Keeping a stored createdAt on an update of an
 * existing record is the provider's job (its upsert must not overwrite it).
 */
export function stampTimestamps(
  entity: EntityModel,
  values: Record<string, unknown>,
  clock: () => Date,
  _isInsert = true,
): Record<string, unknown> {
  const createdAt = entity.createdAt !== null && createdAtUnset(values[entity.createdAt]) ? entity.createdAt : null;
  // Nothing to stamp: no copy and no Date (every write of an entity without timestamps runs this).
  if (createdAt === null && entity.updatedAt === null) return values;
  const now = clock();
  const stamped = { ...values };
  if (createdAt !== null) stamped[createdAt] = now;
  if (entity.updatedAt !== null) stamped[entity.updatedAt] = now;
  return stamped;
}

/** The client clock stampTimestamps reads (the stores whose timestamps are the client's). */
export const clientNow = (): Date => new Date();

/**
 * The clock of one commit of a unit of work: the client clock read once, so that every record of
 * the unit carries the same @CreatedAt/@UpdatedAt instant (one transaction, one now), on every
 * store whose timestamps are the client's.
 */
export function commitClock(): () => Date {
  const now = new Date();
  return () => now;
}

/**
 * A @CreatedAt value that is stamped on write: not a Date, or the `new Date(0)` placeholder (the
 * usual initialiser of a not-yet-set timestamp member).
 */
export function createdAtUnset(value: unknown): boolean {
  return !(value instanceof Date) || value.getTime() === 0;
}
