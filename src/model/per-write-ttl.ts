import { TtlError } from '../errors';
import { parseDuration, showValue, type DurationInput } from './duration';

/**
 * What one write does to a record's expiry (after Aerospike's -2/-1/0/n vocabulary):
 * a duration, the entity default, never, keep the current expiry, or extend (never shorten).
 */
export type PerWriteTtl = DurationInput | 'default' | 'never' | 'keep' | { readonly extend: DurationInput };

export type ResolvedWriteTtl =
  | { readonly kind: 'duration'; readonly seconds: number }
  | { readonly kind: 'default' }
  | { readonly kind: 'never' }
  | { readonly kind: 'keep' }
  | { readonly kind: 'extend'; readonly seconds: number };

export type WriteTtlKind = ResolvedWriteTtl['kind'];

export const WRITE_TTL_KINDS: readonly WriteTtlKind[] = ['duration', 'default', 'never', 'keep', 'extend'];

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
    hint: "pass a duration, 'default', 'never', 'keep' or { extend: duration }",
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

export function describeWriteTtl(ttl: ResolvedWriteTtl): string {
  switch (ttl.kind) {
    case 'duration':
      return `${ttl.seconds}s`;
    case 'extend':
      return `extend by ${ttl.seconds}s`;
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
