import { LifespanError } from '../errors';
import { keyMembers, type EntityModel } from '../model/types';
import type { KeyInput } from '../providers/contract';

/** Member → value of every field of an instance (members not in the model are not stored). */
export function valuesOf(entity: EntityModel, instance: object): Record<string, unknown> {
  const source = instance as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of entity.fields) values[field.member] = source[field.member];
  return values;
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
  const isObjectKey = typeof key === 'object' && key !== null && !(key instanceof Date);
  if (!isObjectKey) {
    if (members.length !== 1) {
      throw new LifespanError(
        'KEY_INCOMPLETE',
        `the key has ${members.length} members (${members.join(', ')}), got a single value`,
        {
          entity: entity.name,
          store,
          hint: `pass an object: { ${members.map((m) => `${m}: …`).join(', ')} }`,
        },
      );
    }
    return { [members[0] as string]: key };
  }
  const given = key as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const member of members) {
    const value = given[member];
    if (value === undefined || value === null) {
      throw new LifespanError('KEY_INCOMPLETE', `key member '${member}' is missing`, {
        entity: entity.name,
        member,
        store,
        hint: `pass every key member: ${members.join(', ')}`,
      });
    }
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
  now: Date,
  _isInsert = true,
): Record<string, unknown> {
  const stamped = { ...values };
  if (entity.createdAt) {
    const current = stamped[entity.createdAt];
    if (!(current instanceof Date) || isEpochPlaceholder(current)) stamped[entity.createdAt] = now;
  }
  if (entity.updatedAt) stamped[entity.updatedAt] = now;
  return stamped;
}

/** `new Date(0)` is the usual initialiser of a not-yet-set timestamp member. */
function isEpochPlaceholder(value: unknown): boolean {
  return value instanceof Date && value.getTime() === 0;
}
