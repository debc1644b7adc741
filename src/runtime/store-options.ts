import type { ErrorCode } from '../error-codes';
import { LifespanError } from '../errors';
import { showValue } from '../model/show-value';

/**
 * The options of a store's constructor, checked the same way on every store before the store
 * exists: the driver object it is built on, recognised by its shape, and the true/false switches.
 * A store passes its own code and an example of a right call.
 */
export interface OptionRefusal {
  readonly store: string;
  readonly code: ErrorCode;
  readonly hint: string;
}

/** `options[member]` when it is the driver object `fits` recognises; otherwise `message`, naming what to pass. */
export function driverOption<D extends object>(
  options: unknown,
  member: string,
  fits: (value: Partial<D>) => boolean,
  refusal: OptionRefusal & { readonly message: string },
): D {
  const value = (options as Readonly<Record<string, unknown>> | null | undefined)?.[member];
  if (typeof value === 'object' && value !== null && fits(value as Partial<D>)) return value as D;
  throw new LifespanError(refusal.code, refusal.message, { store: refusal.store, hint: refusal.hint });
}

/** An optional true/false option: `fallback` when absent, anything but a boolean refused. */
export function booleanOption(options: object, member: string, fallback: boolean, refusal: OptionRefusal): boolean {
  const value = (options as Readonly<Record<string, unknown>>)[member] ?? fallback;
  if (typeof value === 'boolean') return value;
  throw new LifespanError(refusal.code, `${member} must be true or false, got ${showValue(value)}`, {
    store: refusal.store,
    hint: refusal.hint,
  });
}
