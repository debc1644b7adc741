import { ErrorCodes } from '../error-codes';
import { LifespanError, type ErrorPlace } from '../errors';
import { safeClassName, showValue } from '../model/show-value';
import type { EntityClass, EntityModel, Model } from '../model/types';
import type { FindOptions, PlanOptions, Store, WriteOptions } from '../providers/contract';

/** A Model as build() returns it; anything else (a builder, undefined) is a clear usage error. */
export function assertModel(value: unknown, where: string): asserts value is Model {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { entities?: unknown }).entities)) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${where} needs a built Model, got ${describe(value)}`, {
      hint: 'pass the result of new ModelBuilder()...build()',
    });
  }
}

export function assertStore(value: unknown): asserts value is Store {
  const store = value as Partial<Store> | null | undefined;
  if (typeof store !== 'object' || store === null || typeof store.open !== 'function') {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `connect() needs a store, got ${describe(value)}`, {
      hint: 'pass a store object, e.g. new RelationalStore({ ... }) from lifespan-orm/relational',
    });
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return typeof value;
}

/**
 * The options argument of a public call, the same on every store: `undefined` or an object.
 * Anything else (null, a number passed where the options go) is a BAD_ARGUMENT naming the call,
 * checked before anything is written or spent.
 */
export function optionsArgument<T extends object>(value: unknown, call: string, place: ErrorPlace, example: string): T {
  // Every member of these options is optional, so an empty object is a valid T.
  if (value === undefined) return {} as T;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as T;
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got ${showValue(value)} as its options`, {
    ...place,
    hint: `pass an options object, e.g. ${example}, or leave it out`,
  });
}

const WRITE_OPTIONS: readonly (keyof WriteOptions)[] = ['ttl'];
const NO_WRITE_OPTIONS: WriteOptions = Object.freeze({});
const WRITE_EXAMPLE = "{ ttl: '1h' }";

/**
 * A write's options: an object whose only member is `ttl`; a misspelt name (`{ tll: 60 }`) is
 * refused rather than written as if it were absent. Every insert runs this, so the accepted case
 * allocates nothing (a for…in over the members, the messages built only to throw).
 */
export function writeOptions(value: unknown, call: string, store: string): WriteOptions {
  if (value === undefined) return NO_WRITE_OPTIONS;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const name in value) {
      if (name !== 'ttl') return knownOptions<WriteOptions>(value, call, { store }, WRITE_OPTIONS, WRITE_EXAMPLE);
    }
    return value as WriteOptions;
  }
  return optionsArgument<WriteOptions>(value, call, { store }, WRITE_EXAMPLE);
}

/** plan()'s options, checked by every store before it inspects anything. */
export function planOptions(value: unknown, store: string): PlanOptions {
  return flagOptions<PlanOptions>(value, 'plan()', { store }, ['counts', 'allowDestructive'], '{ counts: true }');
}

/**
 * Options whose every member is a true/false flag (plan(), apply(), ensureCollections()): an
 * unknown name or a value other than a boolean is refused, so a misspelt or mistyped flag
 * (`{ allowRetroactve: true }`, `{ counts: 1 }`) never runs as if it were absent.
 */
export function flagOptions<T extends object>(
  value: unknown,
  call: string,
  place: ErrorPlace,
  flags: readonly (keyof T & string)[],
  example: string,
): T {
  const options = knownOptions<T>(value, call, place, flags, example);
  for (const [name, flag] of Object.entries(options)) {
    if (flag === undefined || typeof flag === 'boolean') continue;
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got ${name}: ${showValue(flag)}, not true or false`, {
      ...place,
      hint: `give ${name}: true, or leave it out, e.g. ${example}`,
    });
  }
  return options;
}

/**
 * The class of an entity instance handed to a unit of work, which has no other way to know the
 * entity: a non-object is a BAD_ARGUMENT, a plain object UNKNOWN_ENTITY, on every store.
 */
export function entityClassOf(entity: unknown, call: string, store: string): EntityClass {
  if (typeof entity !== 'object' || entity === null || Array.isArray(entity)) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got ${showValue(entity)}, not an entity instance`, {
      store,
      hint: 'pass an instance of an entity class of the model, e.g. new Session()',
    });
  }
  const target = (entity as { constructor?: unknown }).constructor;
  if (typeof target !== 'function' || target === Object) {
    throw new LifespanError(ErrorCodes.UNKNOWN_ENTITY, `${call} got a plain object, not an entity instance`, {
      store,
      hint: 'pass an instance of an entity class of the model (e.g. Object.assign(new Session(), values))',
    });
  }
  return target as EntityClass;
}

/**
 * The entity handed to a repository's insert/upsert. The repository knows its entity, so a plain
 * object of the members is taken as well as an instance of the class; an instance of any other
 * class (another entity, a Date), an array, null or a primitive is a BAD_ARGUMENT naming it.
 */
export function entityArgument(value: unknown, call: string, entity: EntityModel, store: string): object {
  if (isEntityShaped(value, entity)) return value;
  const name = entity.name;
  throw new LifespanError(
    ErrorCodes.BAD_ARGUMENT,
    `${call} got ${describeEntity(value)}, not ${article(name)} ${name}`,
    {
      entity: name,
      store,
      hint: `pass ${article(name)} ${name} or a plain object of its members, e.g. Object.assign(new ${name}(), { ... })`,
    },
  );
}

function isEntityShaped(value: unknown, entity: EntityModel): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null || value instanceof entity.target;
  } catch {
    // A proxy whose getPrototypeOf trap throws is no entity either.
    return false;
  }
}

function describeEntity(value: unknown): string {
  if (typeof value !== 'object' || value === null) return showValue(value);
  if (Array.isArray(value)) return 'an array';
  const name = safeClassName(value);
  return `${article(name)} ${name}`;
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? 'an' : 'a';
}

/**
 * A find()/count() filter: an object of member values ({} means every record) or left out. null,
 * an array, a Date or a primitive is a BAD_ARGUMENT: `null` is not "no filter" on any store, so a
 * variable that is unexpectedly null does not silently read (or count) everything.
 */
export function filterArgument(value: unknown, call: string, place: ErrorPlace): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)) {
    return value as Record<string, unknown>;
  }
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got ${showValue(value)} as its filter`, {
    ...place,
    hint: 'pass an object of member values, e.g. { member: value }; pass {} or nothing for every record',
  });
}

/** find()'s options (undefined or an object, as every other options argument), reduced to its checked limit. */
export function findLimit(options: unknown, place: ErrorPlace, max?: number): number | undefined {
  const { limit } = optionsArgument<FindOptions>(options, 'find()', place, '{ limit: 10 }');
  return limitArgument(limit, 'find()', place, max);
}

/** The keys handed to getMany(): an array, checked before any read is sent. */
export function keysArgument<K>(value: unknown, call: string, place: ErrorPlace): readonly K[] {
  if (Array.isArray(value)) return value as readonly K[];
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got ${showValue(value)}, not an array of keys`, {
    ...place,
    hint: "pass an array, e.g. getMany(['a', 'b']); for one key use get(key)",
  });
}

/**
 * find()'s limit: absent, or a whole number from 1 to `max`. `max` is the store's own ceiling where
 * it has one (e.g. a 32-bit LIMIT); past 2^53 a number is no longer exact, so no store takes more.
 */
export function limitArgument(
  value: unknown,
  call: string,
  place: ErrorPlace,
  max: number = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= max) return value;
  throw new LifespanError(
    ErrorCodes.BAD_ARGUMENT,
    `${call} got limit ${showValue(value)}, not a whole number from 1 to ${max}`,
    { ...place, hint: 'pass { limit: n } with a positive whole number n, or leave limit out for every match' },
  );
}

/** A member named where the entity has none by that name (a find() filter, a member read or written). */
export function unknownMember(
  member: string,
  members: readonly string[],
  place: ErrorPlace & { readonly entity: string },
): LifespanError {
  return new LifespanError(ErrorCodes.UNKNOWN_MEMBER, `${showValue(member)} is not a member of ${place.entity}`, {
    ...place,
    member,
    hint: `use one of ${members.join(', ')}`,
  });
}

// findPage / iterate / deleteMany (issue 26)
/** An options object whose keys must all be known: an unknown option is bad input, not ignored. */
export function knownOptions<T extends object>(
  value: unknown,
  call: string,
  place: ErrorPlace,
  known: readonly string[],
  example: string,
): T {
  const options = optionsArgument<T>(value, call, place, example);
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) {
      throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} has no option ${showValue(name)}`, {
        ...place,
        hint: `its options are ${known.join(', ')}, e.g. ${example}`,
      });
    }
  }
  return options;
}
