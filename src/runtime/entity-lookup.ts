import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import { showValue } from '../model/show-value';
import type { EntityModel } from '../model/types';

/** The class an entity of the model was built from, with whatever a store keeps for it. */
export type EntityEntry<T> = readonly [EntityModel, T];

/**
 * Finds what a store keeps for an entity class handed to repository() or a unit of work, the same
 * way on every store: only the very class the model was built with is found (by identity, never by
 * name: two classes may share one); anything else is an UNKNOWN_ENTITY that names what was given
 * and the store, and says which classes the model has.
 */
export function entityLookup<T>(store: string, entries: Iterable<EntityEntry<T>>): (target: unknown) => T {
  const byClass = new Map<unknown, T>();
  const names: string[] = [];
  for (const [entity, value] of entries) {
    byClass.set(entity.target, value);
    names.push(entity.name);
  }
  return (target) => {
    const found = byClass.get(target);
    if (found !== undefined) return found;
    throw unknownEntity(target, names, store);
  };
}

/** The lookup over what a store compiled per entity (anything that names its entity model). */
export function lookupByEntity<T extends { readonly entity: EntityModel }>(
  store: string,
  compiled: Iterable<T>,
): (target: unknown) => T {
  return entityLookup(
    store,
    [...compiled].map((c) => [c.entity, c] as const),
  );
}

function unknownEntity(target: unknown, names: readonly string[], store: string): LifespanError {
  const model = names.length > 0 ? `the model's classes are ${names.join(', ')}` : 'the model has no entity';
  if (typeof target !== 'function') {
    const byName = typeof target === 'string' && names.includes(target);
    return new LifespanError(ErrorCodes.UNKNOWN_ENTITY, `${showValue(target)} is not an entity class`, {
      store,
      hint: byName ? `pass the class ${target} itself, not its name; ${model}` : `pass an entity class: ${model}`,
    });
  }
  const name = target.name || 'an anonymous class';
  const namesake = target.name !== '' && names.includes(target.name);
  return new LifespanError(ErrorCodes.UNKNOWN_ENTITY, `${name} is not an entity of this model`, {
    store,
    hint: namesake
      ? `it is another class named ${name}: pass the class the model was built with`
      : `${model}; add it with new ModelBuilder().entity(...) before build()`,
  });
}
