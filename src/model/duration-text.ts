/**
 * The text forms of a duration, as one strict grammar: the whole text (after trimming surrounding
 * whitespace) must be one duration, or nothing is read from it.
 *
 *   short form  [n d][n h][n m][n s]            '90s' '15m' '1h30m' '1.5h' '7d'   (lower case)
 *   ISO 8601    P[n W] | P[n D][T[n H][n M][n S]]  'PT1H' 'P1DT2H30M' 'PT0.5H' 'P2W' (any case)
 *
 * Each unit at most once, largest first, at least one; a decimal fraction ('.', not ',') only on
 * the last amount, and the total must come to whole seconds (duration.ts checks that, the same way
 * for every form). Years and months have no fixed length and are refused with their own message.
 */
import { decimalFromText, type Decimal } from './exact-seconds';

export type Unit = 'w' | 'd' | 'h' | 'm' | 's';
export const UNIT_SECONDS: Record<Unit, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };

export type TextReading =
  | { readonly kind: 'duration'; readonly terms: ReadonlyArray<{ amount: Decimal; factor: number }> }
  | { readonly kind: 'negative' }
  | { readonly kind: 'calendar' }
  | { readonly kind: 'no-unit'; readonly terms: ReadonlyArray<{ amount: Decimal; factor: number }> }
  | { readonly kind: 'comma' }
  | { readonly kind: 'malformed'; readonly why: string };

const N = String.raw`(\d+(?:\.\d+)?)`;
const SHORT = new RegExp(`^(?:${N}d)?(?:${N}h)?(?:${N}m)?(?:${N}s)?$`);
const ISO = new RegExp(`^(-)?P(?:${N}Y)?(?:${N}M)?(?:${N}W)?(?:${N}D)?(?:(T)(?:${N}H)?(?:${N}M)?(?:${N}S)?)?$`);
const SHORT_CALENDAR = /^\d+(?:\.\d+)?\s*(?:y|yr|yrs|year|years|mo|mon|month|months)$/i;
const BARE_NUMBER = /^\d+(?:\.\d+)?$/;

export function readDurationText(trimmed: string): TextReading {
  // Upper-casing non-ASCII text can make ASCII of it ('ſ' → 'S'): such text is never a duration.
  if (/[^\x20-\x7e]/.test(trimmed)) return { kind: 'malformed', why: 'has characters no duration has' };
  const short = SHORT.exec(trimmed);
  if (short) return termsOf(['d', 'h', 'm', 's'], short.slice(1));
  if (/^-?P/i.test(trimmed)) return readIso(trimmed.toUpperCase());
  if (SHORT_CALENDAR.test(trimmed)) return { kind: 'calendar' };
  if (BARE_NUMBER.test(trimmed)) {
    return { kind: 'no-unit', terms: [{ amount: decimalFromText(trimmed) as Decimal, factor: 1 }] };
  }
  if (/^[+-]/.test(trimmed)) return readSigned(trimmed);
  if (/\d,\d/.test(trimmed)) return { kind: 'comma' };
  return { kind: 'malformed', why: 'is not a duration' };
}

/** One rule for a sign in every form: '-' before a duration is negative ('-1h', '-60', '-PT1H'); '+' is refused. */
function readSigned(trimmed: string): TextReading {
  const rest = trimmed.slice(1);
  const unsigned = readDurationText(rest);
  // A digit or 'P' right after the sign: '- 1h' and '--1h' stay malformed.
  const readable = /^[\dP]/i.test(rest) && (unsigned.kind === 'duration' || unsigned.kind === 'no-unit');
  if (!readable) return { kind: 'malformed', why: 'is not a duration' };
  return trimmed.startsWith('-')
    ? { kind: 'negative' }
    : { kind: 'malformed', why: "has a '+' sign; a TTL is written without one" };
}

function readIso(text: string): TextReading {
  const match = ISO.exec(text);
  if (!match) {
    return /\d,\d/.test(text) ? { kind: 'comma' } : { kind: 'malformed', why: 'is not a valid ISO 8601 duration' };
  }
  const [, sign, years, months, weeks, days, timeMark, hours, minutes, seconds] = match;
  if (timeMark !== undefined && hours === undefined && minutes === undefined && seconds === undefined) {
    return {
      kind: 'malformed',
      why: "is not a valid ISO 8601 duration: 'T' must be followed by hours, minutes or seconds",
    };
  }
  if (weeks !== undefined && [years, months, days, hours, minutes, seconds].some((p) => p !== undefined)) {
    return { kind: 'malformed', why: "is not a valid ISO 8601 duration: weeks ('W') stand alone" };
  }
  const reading = termsOf(['y', 'mo', 'w', 'd', 'h', 'm', 's'], [years, months, weeks, days, hours, minutes, seconds]);
  if (reading.kind !== 'duration') return reading;
  if (years !== undefined || months !== undefined) return { kind: 'calendar' };
  return sign ? { kind: 'negative' } : reading;
}

/** Amounts by unit; refuses an empty duration and a fraction anywhere but on the last amount. */
function termsOf(units: ReadonlyArray<Unit | 'y' | 'mo'>, amounts: ReadonlyArray<string | undefined>): TextReading {
  const present = units.flatMap((unit, i) => (amounts[i] === undefined ? [] : [{ unit, text: amounts[i] as string }]));
  if (present.length === 0) return { kind: 'malformed', why: 'has no amount' };
  if (present.slice(0, -1).some((p) => p.text.includes('.'))) {
    return { kind: 'malformed', why: 'has a fraction before its last amount; only the last amount may have one' };
  }
  const terms = present.map((p) => ({
    amount: decimalFromText(p.text) as Decimal,
    factor: p.unit === 'y' || p.unit === 'mo' ? 0 : UNIT_SECONDS[p.unit],
  }));
  return { kind: 'duration', terms };
}
