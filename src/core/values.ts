import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import { showValue } from '../model/show-value';
import type { FieldType } from '../model/types';

/**
 * What a value of each field type may be, the same on every store. Providers call checkValue()
 * first and then convert the checked value to their driver's form and apply their own limits
 * (e.g. CQL int), so a value is accepted or refused alike everywhere, with one VALUE_INVALID wording.
 */
export interface ValuePlace {
  readonly entity: string;
  readonly member: string;
  readonly store: string;
  /** A key member: never nullable, so a missing value cannot be fixed by declaring it nullable. */
  readonly key?: boolean;
  /** Appended to the message: why this member matters on this store (e.g. it feeds a TTL index). */
  readonly note?: string | undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What each type accepts, as the message says it: "value 1.5 is not a safe integer". */
export const EXPECTED: Readonly<Record<FieldType, string>> = {
  string: 'a string (well-formed: no lone surrogate)',
  uuid: 'a uuid string (8-4-4-4-12 hex digits)',
  number: 'a finite number',
  integer: 'a safe integer',
  counter: 'a safe integer',
  bigint: 'a bigint in the int64 range',
  boolean: 'a boolean',
  date: 'a valid Date',
  json: 'a JSON-like value (null, boolean, finite number, well-formed string, array or plain object, no cycles)',
  binary: 'a Buffer or Uint8Array',
};

const REFUSED = Symbol('refused');

/**
 * The tests of the types whose checked value is the value itself. Compiled encoders (one per
 * entity, relational) take a value that passes one of these without calling checkValue, and hand
 * every other value to checkValue: so they accept and refuse exactly what it does.
 */
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isSafeInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
export const isValidDate = (v: unknown): v is Date => v instanceof Date && !Number.isNaN(v.getTime());

/** The checked value: bigint members are always a JS bigint (a safe integer number is widened). */
const checkers: Readonly<Record<FieldType, (value: unknown) => unknown>> = {
  string: (v) => (isWellFormed(v) ? v : REFUSED),
  uuid: (v) => (typeof v === 'string' && UUID.test(v) ? v : REFUSED),
  number: (v) => (isFiniteNumber(v) ? v : REFUSED),
  integer: (v) => (isSafeInteger(v) ? v : REFUSED),
  counter: (v) => (isSafeInteger(v) ? v : REFUSED),
  bigint: (v) => {
    const big = typeof v === 'bigint' ? v : isSafeInteger(v) ? BigInt(v) : null;
    return big === null || big < INT64_MIN || big > INT64_MAX ? REFUSED : big;
  },
  boolean: (v) => (typeof v === 'boolean' ? v : REFUSED),
  date: (v) => (isValidDate(v) ? v : REFUSED),
  json: (v) => (isJson(v, new Set()) ? v : REFUSED),
  binary: (v) => (v instanceof Uint8Array ? v : REFUSED),
};

/**
 * Checks a member value against its type and nullability; returns the value (null for a missing
 * nullable one) or throws VALUE_INVALID naming the value, the place and what to give instead.
 */
export function checkValue(type: FieldType, nullable: boolean, value: unknown, place: ValuePlace): unknown {
  if (value === null || value === undefined) {
    if (nullable && !place.key) return null;
    if (place.key)
      throw valueInvalid(place, value, 'is required (a key member)', `set ${place.member}: it is part of the key`);
    throw valueInvalid(place, value, 'is required (the member is not nullable)', 'set a value, or declare it nullable');
  }
  const checked = checkers[type](value);
  if (checked === REFUSED)
    throw valueInvalid(place, value, `is not ${EXPECTED[type]}`, `give ${place.member} ${EXPECTED[type]}`);
  return checked;
}

/** The one VALUE_INVALID wording: "value <shown> <problem>", with the place and a hint. */
export function valueInvalid(place: ValuePlace, value: unknown, problem: string, hint: string): LifespanError {
  const note = place.note ? ` ${place.note}` : '';
  return new LifespanError(ErrorCodes.VALUE_INVALID, `value ${describeValue(value)} ${problem}${note}`, {
    entity: place.entity,
    member: place.member,
    store: place.store,
    hint,
  });
}

/** A value as the checker shows it in a message: at most 80 characters. */
export function describeValue(value: unknown): string {
  if (value instanceof Date && Number.isNaN(value.getTime())) return 'Invalid Date';
  const text = showValue(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * No lone surrogate (a high one not followed by a low one, or a low one alone): no store can encode
 * it as UTF-8, and several replace it with U+FFFD without an error. `isWellFormed` is in every
 * Node this package supports (>= 20.19), but ES2024, so not in the ES2022 lib types.
 */
export function isWellFormed(value: unknown): value is string {
  return typeof value === 'string' && (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/** A value JSON holds and gives back unchanged (an undefined object member is left out, as JSON does). */
function isJson(value: unknown, seen: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
      return isWellFormed(value);
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (seen.has(value)) return false;
      if (Array.isArray(value)) return within(value, seen, () => value.every((v) => isJson(v, seen)));
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      return within(value, seen, () =>
        Object.entries(value).every(([k, v]) => isWellFormed(k) && (v === undefined || isJson(v, seen))),
      );
    }
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      return false;
  }
}

function within(value: object, seen: Set<object>, check: () => boolean): boolean {
  seen.add(value);
  try {
    return check();
  } finally {
    seen.delete(value);
  }
}
