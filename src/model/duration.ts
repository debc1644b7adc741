import type { CodeOf } from '../error-codes';
import { TtlError } from '../errors';
import { readDurationText } from './duration-text';
import { decimalFromNumber, showSeconds, sumSeconds, type Decimal } from './exact-seconds';
import { safeClassName, showValue } from './show-value';

/**
 * Re-exported as a plain value rather than `export { showValue } from`: tsc emits that as an
 * accessor over the data property it first declared, and redefining it turns this module's
 * exports object into a dictionary, so every `parseDuration` / `MAX_TTL_SECONDS` an importer
 * reads (per write) was a generic property load instead of an inlined one (callgrind, bench/tools/sqlite-insert-harness.js).
 * test/model/module-exports.test.ts keeps it so.
 */
const reexportedShowValue: typeof showValue = showValue;
export { reexportedShowValue as showValue };

/** A TTL as users write it: seconds, '90s' / '15m' / '1h' / '1h30m' / '7d', ISO 8601 'PT1H', or parts. */
export type DurationInput = number | string | DurationParts;

/**
 * The duration texts TypeScript can check at compile time: the short form with its units in
 * order ('90s', '15m', '1h30m', '1.5h', '7d') and ISO 8601 ('PT1H', any case). `'1 hour'` is none
 * of them. The run-time check (parseDuration) stays the one that decides.
 */
type Amount = `${number}`;
/** Surrounding whitespace is accepted at run time ('1h '), so by the type too. */
type Padded<T extends string> = T | ` ${T}` | `${T} ` | ` ${T} `;
export type DurationText = Padded<CoreDurationText>;
type CoreDurationText =
  | `${Amount}${'d' | 'h' | 'm' | 's'}`
  | `${Amount}d${Amount}${'h' | 'm' | 's'}`
  | `${Amount}h${Amount}${'m' | 's'}`
  | `${Amount}m${Amount}s`
  | `${Amount}d${Amount}h${Amount}${'m' | 's'}`
  | `${Amount}d${Amount}m${Amount}s`
  | `${Amount}h${Amount}m${Amount}s`
  | `${Amount}d${Amount}h${Amount}m${Amount}s`
  | `${'P' | 'p'}${string}`;

/**
 * A string literal `D` is accepted only when it is a DurationText; a `string` that is not a
 * literal (`process.env.TTL ?? '1h'`) is accepted as it is and checked at run time.
 */
export type DurationString<D extends string> = string extends D ? D : D extends DurationText ? D : DurationText;

export interface DurationParts {
  readonly days?: number;
  readonly hours?: number;
  readonly minutes?: number;
  readonly seconds?: number;
}

/** The largest TTL any store accepts as a signed 32-bit count of seconds. */
export const MAX_TTL_SECONDS = 2_147_483_647;

const PART_SECONDS: Record<keyof DurationParts, number> = { days: 86400, hours: 3600, minutes: 60, seconds: 1 };
const FORMS_HINT = "write a positive whole number of seconds, '90s', '15m', '1h30m', '7d', 'PT1H' or { hours: 1 }";
const FRACTION_HINT =
  "a fraction is allowed where the total comes to whole seconds ('1.5h', 'PT0.5H', { minutes: 0.5 }); round it yourself";

/**
 * Parses a duration to whole seconds, or throws a TtlError that names the value. One rule for
 * fractions in every form: the exact total must be a whole number of seconds (nothing is rounded).
 */
export function parseDuration(input: unknown): number {
  if (typeof input === 'number') return checkNumber(input, input);
  if (typeof input === 'string') return parseDurationText(input);
  if (typeof input === 'bigint') {
    // Only a bigint that is itself a valid TTL is suggested as a number.
    const hint = input > 0n && input <= BigInt(MAX_TTL_SECONDS) ? `write the number ${String(input)}` : undefined;
    throw fail('TTL_INVALID_TYPE', input, 'is a bigint, not a duration', hint);
  }
  if (isPlainObject(input)) return parseParts(input, input);
  throw fail('TTL_INVALID_TYPE', input, `is ${describeType(input)}, not a duration`);
}

function parseDurationText(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') throw fail('TTL_EMPTY', text, 'is empty');
  const reading = readDurationText(trimmed);
  switch (reading.kind) {
    case 'duration':
      return checkTotal(reading.terms, text);
    case 'negative':
      throw notPositive(text, 'is negative');
    case 'calendar':
      throw fail(
        'TTL_CALENDAR_UNIT',
        text,
        'uses years or months, which have no fixed length in seconds',
        "use days instead, e.g. '30d' or 'P30D'",
      );
    case 'no-unit': {
      // Read as seconds first, so the hint never suggests a value that is itself refused ('0', '1.5').
      const seconds = checkTotal(reading.terms, text);
      throw fail('TTL_NO_UNIT', text, 'has no unit', `write the number ${seconds} (seconds) or '${seconds}s'`);
    }
    case 'comma':
      throw fail('TTL_UNKNOWN_FORMAT', text, "uses ',' as the decimal sign", "write a point instead, e.g. 'PT1.5H'");
    case 'malformed':
      throw fail('TTL_UNKNOWN_FORMAT', text, reading.why);
  }
}

function parseParts(parts: object, original: unknown): number {
  let keys: Array<string | symbol>;
  try {
    // Every own key, symbols included: a key lifespan does not read is refused, not ignored.
    keys = Reflect.ownKeys(parts);
  } catch {
    throw fail('TTL_INVALID_TYPE', original, 'is an object whose keys cannot be read');
  }
  if (keys.length === 0) throw fail('TTL_EMPTY', original, 'has no days, hours, minutes or seconds');
  const terms: Array<{ amount: Decimal; factor: number }> = [];
  for (const key of keys) {
    if (typeof key === 'symbol' || !Object.hasOwn(PART_SECONDS, key)) {
      throw fail(
        'TTL_UNKNOWN_UNIT',
        original,
        `has an unknown unit ${showValue(key)}`,
        'use days, hours, minutes, seconds',
      );
    }
    const factor = PART_SECONDS[key as keyof DurationParts];
    const value = readPart(parts, key, original);
    const amount = typeof value === 'number' ? decimalFromNumber(value) : undefined;
    if (amount === undefined) {
      throw fail('TTL_INVALID_PART', original, `has ${key} = ${showValue(value)}; each part must be a number ≥ 0`);
    }
    terms.push({ amount, factor });
  }
  return checkTotal(terms, original);
}

function readPart(parts: object, key: string, original: unknown): unknown {
  try {
    return (parts as Record<string, unknown>)[key];
  } catch (error) {
    throw fail('TTL_INVALID_PART', original, `has a ${key} that throws when read (${errorText(error)})`);
  }
}

function checkTotal(terms: ReadonlyArray<{ amount: Decimal; factor: number }>, original: unknown): number {
  const { whole, floor, exact } = sumSeconds(terms);
  if (floor > BigInt(MAX_TTL_SECONDS)) throw tooLarge(original, floor);
  if (whole === undefined) {
    throw fail('TTL_FRACTIONAL', original, `comes to ${exact} s, not a whole number of seconds`, FRACTION_HINT);
  }
  if (whole === 0n) throw notPositive(original, 'is zero');
  if (whole > BigInt(MAX_TTL_SECONDS)) throw tooLarge(original, whole);
  return Number(whole);
}

function checkNumber(seconds: number, original: unknown): number {
  if (Number.isNaN(seconds)) throw fail('TTL_NOT_A_NUMBER', original, 'is NaN');
  if (!Number.isFinite(seconds)) throw fail('TTL_NOT_FINITE', original, 'is not finite');
  if (seconds <= 0) throw notPositive(original, seconds === 0 ? 'is zero' : 'is negative');
  if (!Number.isInteger(seconds)) {
    throw fail('TTL_FRACTIONAL', original, 'is not a whole number of seconds', FRACTION_HINT);
  }
  if (seconds > MAX_TTL_SECONDS) throw tooLarge(original, seconds);
  return seconds;
}

function notPositive(original: unknown, problem: string): TtlError {
  return fail(
    'TTL_NOT_POSITIVE',
    original,
    problem,
    "a TTL must be a positive number of seconds; for a record that never expires, leave the TTL out or write 'never' per write",
  );
}

function tooLarge(original: unknown, seconds: number | bigint): TtlError {
  return fail(
    'TTL_TOO_LARGE',
    original,
    `is ${showSeconds(seconds)} s, over the largest TTL ${MAX_TTL_SECONDS} s (2^31-1)`,
    `the largest TTL is ${MAX_TTL_SECONDS} s (about 68 years, and stores have lower limits of their own); ` +
      "for a record that never expires, leave the TTL out, or write 'never' per write",
  );
}

function fail(code: CodeOf<'TtlError'>, value: unknown, problem: string, hint?: string): TtlError {
  return new TtlError(code, value, `TTL ${showValue(value)} ${problem}`, { hint: hint ?? FORMS_HINT });
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') {
    const name = safeClassName(value);
    return name === 'Array' ? 'an array' : `an object (${name})`;
  }
  return `a ${typeof value}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : showValue(error);
}

/** Seconds as the shortest exact short form: 3600 → '1h', 5400 → '90m', 45 → '45s'. */
export function formatDuration(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400}d`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
