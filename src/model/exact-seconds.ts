/**
 * Exact decimal arithmetic for duration amounts. Floating point makes 0.1 h 360.00000000000006 s
 * and rounds 'PT0.9999999S' to 1 only if someone decides to round; here an amount is the decimal
 * as written (a string's digits, or a number's shortest round-trip form, so { hours: 0.1 } is 0.1),
 * and the sum is a whole number of seconds or it is not.
 */
export interface Decimal {
  /** value = units / 10^scale */
  readonly units: bigint;
  readonly scale: number;
}

const PLAIN = /^(\d+)(?:\.(\d+))?$/;
const NUMBER_FORM = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** '1.5' → { units: 15n, scale: 1 }; undefined unless the text is plain digits with an optional '.fraction'. */
export function decimalFromText(text: string): Decimal | undefined {
  const match = PLAIN.exec(text);
  if (!match) return undefined;
  return fromParts(match[1] as string, match[2] ?? '', 0);
}

/** A finite number ≥ 0 as the decimal JavaScript prints for it (1e-7 and 1e+25 included). */
export function decimalFromNumber(value: number): Decimal | undefined {
  if (!Number.isFinite(value) || value < 0) return undefined;
  const match = NUMBER_FORM.exec(String(value));
  if (!match) return undefined;
  return fromParts(match[1] as string, match[2] ?? '', Number(match[3] ?? 0));
}

function fromParts(whole: string, fraction: string, exponent: number): Decimal {
  const units = BigInt(whole + fraction);
  const scale = fraction.length - exponent;
  return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
}

/**
 * Σ amount × factor, exactly: `whole` when it is a whole number of seconds; `floor` is the whole
 * seconds below it (for a size check before anything is printed) and `exact` the sum as decimal
 * text, short enough for a message, so 400 digits never become NaN, Infinity or a rounded float.
 */
export function sumSeconds(terms: ReadonlyArray<{ amount: Decimal; factor: number }>): {
  whole: bigint | undefined;
  floor: bigint;
  exact: string;
} {
  const scale = Math.max(0, ...terms.map((t) => t.amount.scale));
  let scaled = 0n;
  for (const { amount, factor } of terms) {
    scaled += amount.units * BigInt(factor) * 10n ** BigInt(scale - amount.scale);
  }
  const divisor = 10n ** BigInt(scale);
  const floor = scaled / divisor;
  const remainder = scaled % divisor;
  return {
    whole: remainder === 0n ? floor : undefined,
    floor,
    exact: exactText(floor, remainder, scale),
  };
}

/**
 * The most fraction digits a message shows in full; a longer fraction shows its first and last
 * digits around '…' (never rounded), so the last nonzero digit, the one that makes the amount not
 * whole, stays visible: '1.0000000000000000001', not '1.000000000000000…'.
 */
const SHOWN_FRACTION_DIGITS = 40;
const HEAD_DIGITS = 15;
const TAIL_DIGITS = 5;

/** floor + remainder / 10^scale as decimal text, exactly: '99.00000000000036', not the float's 99. */
function exactText(floor: bigint, remainder: bigint, scale: number): string {
  if (remainder === 0n) return showSeconds(floor);
  const digits = remainder.toString().padStart(scale, '0').replace(/0+$/, '');
  const cut =
    digits.length > SHOWN_FRACTION_DIGITS ? `${digits.slice(0, HEAD_DIGITS)}…${digits.slice(-TAIL_DIGITS)}` : digits;
  return `${showSeconds(floor)}.${cut}`;
}

/** A count of seconds short enough for a message: exact up to 15 digits, else '1.234e+399'. */
export function showSeconds(seconds: bigint | number): string {
  const digits = typeof seconds === 'bigint' ? seconds.toString() : undefined;
  if (digits === undefined || digits.length <= 15) return String(seconds);
  return `${digits[0]}.${digits.slice(1, 4)}e+${digits.length - 1}`;
}
