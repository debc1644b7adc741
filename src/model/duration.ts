import { parse as parseIso8601 } from 'tinyduration';
import { TtlError } from '../errors';

/** A TTL as users write it: seconds, '90s' / '15m' / '1h' / '7d', ISO 8601 'PT1H', or parts. */
export type DurationInput = number | string | DurationParts;

export interface DurationParts {
  readonly days?: number;
  readonly hours?: number;
  readonly minutes?: number;
  readonly seconds?: number;
}

/** The largest TTL any store accepts as a signed 32-bit count of seconds. */
export const MAX_TTL_SECONDS = 2_147_483_647;

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;
const PART_SECONDS: Record<keyof DurationParts, number> = { days: 86400, hours: 3600, minutes: 60, seconds: 1 };
const SHORT_FORM = /^(\d+)([smhd])$/;

/** Parses a duration to whole seconds, or throws a TtlError that names the value. */
export function parseDuration(input: unknown): number {
  if (typeof input === 'number') return checkSeconds(input, input);
  if (typeof input === 'string') return parseDurationText(input);
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return parseParts(input, input);
  throw fail('TTL_INVALID_TYPE', input, `is a ${describeType(input)}, not a duration`);
}

function parseDurationText(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') throw fail('TTL_EMPTY', text, 'is empty');
  const short = SHORT_FORM.exec(trimmed);
  if (short) {
    const unit = short[2] as keyof typeof UNIT_SECONDS;
    return checkSeconds(Number(short[1]) * UNIT_SECONDS[unit], text);
  }
  if (/^[+-]?P/i.test(trimmed)) return parseIso(trimmed, text);
  if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) {
    throw fail('TTL_NO_UNIT', text, 'has no unit', `write the number ${trimmed} (seconds) or '${trimmed}s'`);
  }
  throw fail('TTL_UNKNOWN_FORMAT', text, 'is not a duration');
}

function parseIso(trimmed: string, original: string): number {
  let parsed: ReturnType<typeof parseIso8601>;
  try {
    parsed = parseIso8601(trimmed.toUpperCase());
  } catch {
    throw fail('TTL_UNKNOWN_FORMAT', original, 'is not a valid ISO 8601 duration');
  }
  if (parsed.negative) throw fail('TTL_NOT_POSITIVE', original, 'is negative');
  if (parsed.years || parsed.months) {
    throw fail(
      'TTL_CALENDAR_UNIT',
      original,
      'uses years or months, which have no fixed length in seconds',
      "use days instead, e.g. 'P30D'",
    );
  }
  const seconds =
    (parsed.weeks ?? 0) * 604800 +
    (parsed.days ?? 0) * 86400 +
    (parsed.hours ?? 0) * 3600 +
    (parsed.minutes ?? 0) * 60 +
    (parsed.seconds ?? 0);
  return checkSeconds(roundFloatNoise(seconds), original);
}

function parseParts(parts: object, original: unknown): number {
  const entries = Object.entries(parts);
  if (entries.length === 0) throw fail('TTL_EMPTY', original, 'has no days, hours, minutes or seconds');
  let total = 0;
  for (const [key, value] of entries) {
    const factor = PART_SECONDS[key as keyof DurationParts] as number | undefined;
    if (factor === undefined) {
      throw fail('TTL_UNKNOWN_UNIT', original, `has an unknown unit '${key}'`, 'use days, hours, minutes, seconds');
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw fail('TTL_INVALID_PART', original, `has ${key} = ${String(value)}; each part must be a number ≥ 0`);
    }
    total += value * factor;
  }
  return checkSeconds(roundFloatNoise(total), original);
}

function checkSeconds(seconds: number, original: unknown): number {
  if (Number.isNaN(seconds)) throw fail('TTL_NOT_A_NUMBER', original, 'is NaN');
  if (!Number.isFinite(seconds)) throw fail('TTL_NOT_FINITE', original, 'is not finite');
  if (seconds <= 0) {
    throw fail(
      'TTL_NOT_POSITIVE',
      original,
      seconds === 0 ? 'is zero' : 'is negative',
      "a TTL must be a positive number of seconds; for 'does not expire' leave the TTL out or write 'never' per write",
    );
  }
  if (!Number.isInteger(seconds)) throw fail('TTL_FRACTIONAL', original, 'is not a whole number of seconds');
  if (seconds > MAX_TTL_SECONDS) {
    throw fail('TTL_TOO_LARGE', original, `is ${seconds} s, over the largest TTL ${MAX_TTL_SECONDS} s (2^31-1)`);
  }
  return seconds;
}

/** 0.1h is 360 s but 0.1 * 3600 is 360.00000000000006; keep only sub-microsecond noise out. */
function roundFloatNoise(seconds: number): number {
  const rounded = Math.round(seconds);
  return Math.abs(seconds - rounded) < 1e-6 ? rounded : seconds;
}

function fail(code: string, value: unknown, problem: string, hint?: string): TtlError {
  return new TtlError(code, value, `TTL ${showValue(value)} ${problem}`, {
    hint: hint ?? "write a positive whole number of seconds, '90s', '15m', '1h', '7d', 'PT1H' or { hours: 1 }",
  });
}

export function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Seconds as the shortest exact short form: 3600 → '1h', 5400 → '90m', 45 → '45s'. */
export function formatDuration(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400}d`;
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
