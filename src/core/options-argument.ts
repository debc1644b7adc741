import { ErrorCodes } from '../error-codes';
import { LifespanError, type ErrorPlace } from '../errors';
import { showValue } from '../model/show-value';

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
