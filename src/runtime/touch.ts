import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import { parseDuration, showValue } from '../model/duration';
import type { EntityModel } from '../model/types';
import { writeTtlFor } from './write-ttl';

/** A checked touch: the duration, and the remaining seconds under which a read writes. */
export interface CheckedTouch {
  readonly seconds: number;
  readonly below: number;
  /** A record with fewer remaining seconds than this is touched. */
  readonly thresholdSeconds: number;
}

const READ_OPTIONS = ['touch', 'touchBelow'] as const;

/**
 * The read options of get()/getMany(): an unknown key, a touch that is not a duration, a
 * touchBelow outside (0, 1] or without touch are BAD_ARGUMENT/TtlError; a touch on an entity that
 * did not declare perWrite is TTL_PER_WRITE_NOT_DECLARED (a touch is a per-write TTL), on every store.
 */
export function readOptions(value: unknown, call: string, entity: EntityModel, store: string): CheckedTouch | null {
  if (value === undefined) return null;
  const place = { entity: entity.name, store };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got ${showValue(value)} as its options`, {
      ...place,
      hint: "pass { touch: '1h' } (and touchBelow), or leave the options out",
    });
  }
  const options = value as Record<string, unknown>;
  for (const name of Object.keys(options)) {
    if (!(READ_OPTIONS as readonly string[]).includes(name)) {
      throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} has no option '${name}'`, {
        ...place,
        hint: `its options are ${READ_OPTIONS.join(', ')}`,
      });
    }
  }
  const below = options['touchBelow'];
  if (options['touch'] === undefined) {
    if (below === undefined) return null;
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `${call} got touchBelow without touch`, {
      ...place,
      hint: "give the duration to extend by as well, e.g. { touch: '1h', touchBelow: 0.5 }",
    });
  }
  const seconds = parseDuration(options['touch']);
  if (below !== undefined && !(typeof below === 'number' && below > 0 && below <= 1)) {
    throw new LifespanError(
      ErrorCodes.BAD_ARGUMENT,
      `${call} touchBelow must be a fraction above 0 and at most 1, not ${showValue(below)}`,
      {
        ...place,
        hint: 'e.g. touchBelow: 0.5 touches only when less than half the touch duration remains',
      },
    );
  }
  // A touch is a per-write TTL ({ extend }): the same declaration rule on every store.
  writeTtlFor(entity, { extend: seconds }, store);
  const fraction = below === undefined ? 1 : below;
  return { seconds, below: fraction, thresholdSeconds: seconds * fraction };
}

/** What touching needs of a repository: the remaining life and an extend that never shortens it. */
export interface TouchTarget<K> {
  ttl(key: K): Promise<number | null | undefined>;
  setTtl(key: K, ttl: { extend: number }): Promise<boolean>;
}

/**
 * The portable touch, for a store without its own: the remaining life of each key read, and for
 * those under the threshold one `setTtl(key, { extend })`, the store's exact extend (a conditional
 * write that keeps a later expiry a concurrent write gave, and rewrites nothing else). Keys that
 * are absent or never expire are left alone.
 */
export async function touchEach<K>(target: TouchTarget<K>, keys: readonly K[], touch: CheckedTouch): Promise<number> {
  let touched = 0;
  for (const key of keys) {
    const remaining = await target.ttl(key);
    if (remaining === undefined || remaining === null || remaining >= touch.thresholdSeconds) continue;
    if (await target.setTtl(key, { extend: touch.seconds })) touched += 1;
  }
  return touched;
}

/**
 * A store's own touch on read (native, or a refusal), when it has one: the records of `keys` in
 * their order (undefined where none is live), each extended as `touch` says.
 */
export interface NativeTouch<K, T> {
  getTouched(keys: readonly K[], touch: CheckedTouch): Promise<Array<T | undefined>>;
}
