import { ErrorCodes } from '../../error-codes';
import { LifespanError, type ErrorPlace } from '../../errors';
import { showValue } from '../../model/duration';
import { optionsArgument as sharedOptions } from '../../runtime/arguments';
import type { FindOptions, WriteOptions } from '../contract';
import { STORE } from './semantics';

/** Arguments of the public API checked where they come in, so a mistake is a LifespanError, not a TypeError. */

export function badArgument(place: ErrorPlace, message: string, hint: string): LifespanError {
  return new LifespanError(ErrorCodes.BAD_ARGUMENT, message, { ...place, store: STORE, hint });
}

/** An entity instance (or a plain object holding its members). */
export function entityArgument(value: unknown, place: ErrorPlace, method: string): object {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw badArgument(
    place,
    `${method} got ${showValue(value)}, not an entity`,
    'pass an instance of an entity class of the model',
  );
}

export function optionsArgument<O extends WriteOptions | FindOptions>(
  value: O | undefined,
  place: ErrorPlace,
  method: string,
): O {
  return sharedOptions<O>(value, method, { ...place, store: STORE }, '{ ttl: 60 }');
}
