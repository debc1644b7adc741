import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import type { EnsureOptions, FindOptions, WriteOptions } from '../contract';
import { RELATIONAL_STORE } from './options';

/**
 * Options objects of the public calls: `undefined` or an object. Anything else (null, a number
 * passed where the options go) is a BAD_ARGUMENT naming the call, never a TypeError further in.
 */
export function optionsObject<T extends object>(value: unknown, call: string, example: string): Partial<T> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Partial<T>;
  throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got ${showValue(value)} as its options`, {
    store: RELATIONAL_STORE,
    hint: `pass an options object, e.g. ${example}, or leave it out`,
  });
}

export function checkWriteOptions(value: unknown, call: string): WriteOptions {
  return optionsObject<WriteOptions>(value, call, "{ ttl: '1h' }");
}

export function checkFindOptions(value: unknown, call: string): FindOptions {
  return optionsObject<FindOptions>(value, call, '{ limit: 10 }');
}

export function checkEnsureOptions(value: unknown): EnsureOptions {
  return optionsObject<EnsureOptions>(value, 'ensureCollections()', '{ allowRetroactive: true }');
}
