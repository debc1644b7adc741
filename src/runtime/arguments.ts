import { ErrorCodes } from '../error-codes';
import { LifespanError, type ErrorPlace } from '../errors';
import { showValue } from '../model/show-value';
import type { EntityClass, Model } from '../model/types';
import type { Store, WriteOptions } from '../providers/contract';

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
      hint: 'pass e.g. new RelationalStore({ knex }) from lifespan/relational',
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

export function writeOptions(value: unknown, call: string, store: string): WriteOptions {
  return optionsArgument<WriteOptions>(value, call, { store }, "{ ttl: '1h' }");
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

/** The keys of getMany(): an array, or a BAD_ARGUMENT naming what was given. */
export function keysArgument<K>(keys: unknown, place: ErrorPlace): asserts keys is readonly K[] {
  if (Array.isArray(keys)) return;
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `getMany needs an array of keys, got ${showValue(keys)}`, {
    ...place,
    hint: "pass an array, e.g. getMany(['a', 'b']); for one key use get(key)",
  });
}

/** find()'s limit: undefined or a positive whole number. */
export function limitArgument(limit: unknown, place: ErrorPlace): number | undefined {
  if (limit === undefined || (Number.isInteger(limit) && (limit as number) > 0)) return limit as number | undefined;
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `limit ${showValue(limit)} is not a positive whole number`, {
    ...place,
    hint: 'pass a positive integer, or leave limit out',
  });
}
