import { TtlError } from '../errors';
import { parseDuration, showValue, type DurationInput } from './duration';

/**
 * What one write does to a record's expiry (after Aerospike's -2/-1/0/n vocabulary):
 * a duration, the entity default, never, keep the current expiry, extend (never shorten), or
 * expire at an instant (`{ at: Date }`).
 */
export type PerWriteTtl =
  DurationInput | 'default' | 'never' | 'keep' | { readonly extend: DurationInput } | { readonly at: Date };

/** The per-write kinds, in the order explain() lists them: the one list the kind union is derived from. */
const KINDS = ['duration', 'default', 'never', 'keep', 'extend', 'at'] as const;

export type WriteTtlKind = (typeof KINDS)[number];

export const WRITE_TTL_KINDS: readonly WriteTtlKind[] = KINDS;

/**
 * The union itself when it has one member for each kind of KINDS, and `never` otherwise: a member
 * whose kind is not listed fails the constraint, and a listed kind without a member turns every
 * ResolvedWriteTtl into `never`, so resolveWriteTtl() no longer compiles.
 */
type OneMemberPerKind<T extends { readonly kind: WriteTtlKind }> = [WriteTtlKind] extends [T['kind']] ? T : never;

export type ResolvedWriteTtl = OneMemberPerKind<
  | { readonly kind: 'duration'; readonly seconds: number }
  | { readonly kind: 'default' }
  | { readonly kind: 'never' }
  | { readonly kind: 'keep' }
  | { readonly kind: 'extend'; readonly seconds: number }
  | { readonly kind: 'at'; readonly at: Date; readonly member?: string }
>;

/** Resolves a per-write value; `undefined` means "not given", which is the entity default. */
export function resolveWriteTtl(value: PerWriteTtl | undefined): ResolvedWriteTtl {
  if (value === undefined || value === 'default') return { kind: 'default' };
  if (value === 'never') return { kind: 'never' };
  if (value === 'keep') return { kind: 'keep' };
  if (typeof value === 'object' && value !== null && hasOwnKey(value, 'extend')) {
    const keys = ownKeys(value);
    if (keys.length !== 1) {
      const others = keys.filter((key) => key !== 'extend').map((key) => showValue(key));
      throw new TtlError(
        'TTL_INVALID_EXTEND',
        value,
        `per-write TTL ${showValue(value)} mixes 'extend' with other keys (${others.join(', ')})`,
        {
          hint: "write { extend: '1h' } alone",
        },
      );
    }
    return { kind: 'extend', seconds: parseDuration(readExtend(value)) };
  }
  if (typeof value === 'object' && value !== null && hasOwnKey(value, 'at')) return resolveAt(value);
  return { kind: 'duration', seconds: parseDuration(value) };
}

/** Own keys only: an inherited or proxied 'extend' is not an extend request, and a trap that throws is bad input. */
function hasOwnKey(value: object, key: string): boolean {
  try {
    return Object.hasOwn(value, key);
  } catch {
    throw unreadable(value);
  }
}

/** Every own key, symbols included (a key lifespan does not read is refused, not ignored); a trap that throws is bad input. */
function ownKeys(value: object): Array<string | symbol> {
  try {
    return Reflect.ownKeys(value);
  } catch {
    throw unreadable(value);
  }
}

function unreadable(value: object): TtlError {
  return new TtlError('TTL_INVALID_TYPE', value, `per-write TTL ${showValue(value)} cannot be read`, {
    hint: "pass a duration, 'default', 'never', 'keep', { extend: duration } or { at: Date }",
  });
}

function readExtend(value: object): unknown {
  try {
    return (value as { extend: unknown }).extend;
  } catch (error) {
    throw new TtlError(
      'TTL_INVALID_EXTEND',
      value,
      `per-write TTL { extend } throws when read (${showValue(error instanceof Error ? error.message : error)})`,
      {
        hint: "write { extend: '1h' } with a plain value",
      },
    );
  }
}

/**
 * `{ at: Date }` alone, holding a valid Date (copied, so a later change of the caller's Date does
 * not move the expiry). Whether the instant is in the future is judged by the store that writes
 * it, with the clock it computes expiry with (runtime/write-instant.ts).
 */
function resolveAt(value: object): ResolvedWriteTtl {
  const keys = ownKeys(value);
  if (keys.length !== 1) {
    const others = keys.filter((key) => key !== 'at').map((key) => showValue(key));
    throw new TtlError(
      'TTL_INVALID_AT',
      value,
      `per-write TTL ${showValue(value)} mixes 'at' with other keys (${others.join(', ')})`,
      { hint: "write { at: new Date('2030-01-01T18:00:00Z') } alone" },
    );
  }
  let at: unknown;
  try {
    at = (value as { at: unknown }).at;
  } catch {
    throw unreadable(value);
  }
  const ms = at instanceof Date ? at.getTime() : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new TtlError(
      'TTL_INVALID_AT',
      at,
      at instanceof Date
        ? 'per-write TTL { at } is an invalid Date (its time is NaN)'
        : `per-write TTL { at } must be a Date, not ${showValue(at)}`,
      { hint: "pass { at: new Date('2030-01-01T18:00:00Z') }, or a duration for a relative expiry" },
    );
  }
  return { kind: 'at', at: new Date(ms) };
}

export function describeWriteTtl(ttl: ResolvedWriteTtl): string {
  switch (ttl.kind) {
    case 'duration':
      return `${ttl.seconds}s`;
    case 'extend':
      return `extend by ${ttl.seconds}s`;
    case 'at':
      return `at ${ttl.at.toISOString()}`;
    case 'default':
    case 'never':
    case 'keep':
      return `'${ttl.kind}'`;
    default: {
      const unknown: never = ttl;
      return String(unknown);
    }
  }
}
