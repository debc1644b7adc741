import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import type { Model } from '../model/types';
import type { Store } from '../providers/contract';

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
