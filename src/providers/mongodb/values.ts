import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import { fieldOf, type FieldType } from '../../model/types';
import type { CollectionMapping } from './compile';
import { STORE } from './semantics';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A member value as it goes into BSON, checked against the member's declared type. BSON keeps
 * whatever JS type it is given, so without this a string lands in a number field, NaN in a count
 * and `5` in a string `_id` (which then never matches the key '5'), and nothing ever complains.
 * Writes, keys and filters all pass through here. A nullable member's null/undefined is null.
 */
export function toStored(mapping: CollectionMapping, member: string, value: unknown): unknown {
  const field = fieldOf(mapping.entity, member);
  const type: FieldType = field?.type ?? 'json';
  if (value === null || value === undefined) {
    if (field?.nullable) return null;
    throw invalid(
      mapping,
      member,
      value,
      'is required (the member is not nullable)',
      'set a value, or declare it nullable',
    );
  }
  const expected = EXPECTED[type];
  const stored = checkers[type](value);
  if (stored === REFUSED) throw invalid(mapping, member, value, `is not ${expected}`, `give ${member} ${expected}`);
  return stored;
}

function invalid(mapping: CollectionMapping, member: string, value: unknown, problem: string, hint: string) {
  const ttl = mapping.ttl;
  // The TTL monitor skips a document whose indexed field is not a date: it would never expire.
  const why =
    ttl?.kind === 'date-member' && ttl.member === member
      ? ` (the TTL index on ${ttl.field} never expires a document whose ${ttl.field} is not a date)`
      : '';
  return new LifespanError(ErrorCodes.VALUE_INVALID, `value ${describe(value)} ${problem}${why}`, {
    entity: mapping.entity.name,
    member,
    store: STORE,
    hint,
  });
}

function describe(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (typeof value === 'function') return 'a function';
  const text = showValue(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const REFUSED = Symbol('refused');

const EXPECTED: Readonly<Record<FieldType, string>> = {
  string: 'a string',
  uuid: 'a string',
  number: 'a finite number',
  integer: 'a safe integer',
  counter: 'a safe integer',
  bigint: 'a bigint in the int64 range',
  boolean: 'a boolean',
  date: 'a valid Date',
  json: 'a JSON-like value (object, array, string, number, boolean)',
  binary: 'a Buffer or Uint8Array',
};

const checkers: Readonly<Record<FieldType, (value: unknown) => unknown>> = {
  string: (v) => (typeof v === 'string' ? v : REFUSED),
  uuid: (v) => (typeof v === 'string' ? v : REFUSED),
  number: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : REFUSED),
  integer: (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : REFUSED),
  counter: (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : REFUSED),
  // Always a JS bigint, so the driver writes it as int64 whatever its size.
  bigint: (v) => {
    const big = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : null;
    return big === null || big < INT64_MIN || big > INT64_MAX ? REFUSED : big;
  },
  boolean: (v) => (typeof v === 'boolean' ? v : REFUSED),
  date: (v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v : REFUSED),
  json: (v) => (isJsonLike(v, new Set()) ? v : REFUSED),
  binary: (v) => (v instanceof Uint8Array ? v : REFUSED),
};

/** What the BSON serializer can write as a value (no functions, symbols, NaN or cycles). */
function isJsonLike(value: unknown, seen: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null || value instanceof Date || value instanceof Uint8Array) return true;
      if (seen.has(value)) return false;
      seen.add(value);
      const ok = Object.values(value).every((v) => v === undefined || isJsonLike(v, seen));
      seen.delete(value);
      return ok;
    }
    default:
      return false;
  }
}
