import { TtlError } from '../errors';
import type { ResolvedWriteTtl } from '../model/per-write-ttl';
import type { EntityModel } from '../model/types';

/** A per-write TTL once an instant is turned into the duration a store stamps (Cassandra, Cosmos DB). */
export type StampedWriteTtl = Exclude<ResolvedWriteTtl, { kind: 'at' }>;

/** Which clock an instant is judged with, in the words of the messages and explain(). */
export interface InstantClock {
  /** Epoch milliseconds now, by that clock. */
  readonly nowMs: number;
  /** E.g. "this process's clock", "the Cosmos DB server clock (estimated from its Date headers)". */
  readonly name: string;
}

interface InstantPlace {
  readonly entity: EntityModel;
  readonly store: string;
}

/**
 * Refuses an instant that is not after `clock.nowMs`: it would expire the record at once, and on
 * Cassandra a computed TTL of 0 would even mean "never". Nothing has been written when this throws.
 */
export function checkFutureInstant(at: Date, clock: InstantClock, place: InstantPlace): void {
  if (at.getTime() > clock.nowMs) return;
  throw new TtlError(
    'TTL_AT_NOT_FUTURE',
    at,
    `the expiry instant ${at.toISOString()} is not in the future (now by ${clock.name}: ` +
      `${new Date(clock.nowMs).toISOString()}); nothing was written`,
    {
      entity: place.entity.name,
      store: place.store,
      hint: 'pass a later instant, or delete the record if it should be gone now',
    },
  );
}

/**
 * The whole seconds of TTL that make a record written now expire at `at`. A stamping store counts
 * a TTL from the whole second of the write (Cassandra: floor(now in s) + ttl; Cosmos DB: _ts + ttl),
 * so the TTL is counted from the start of the current second and rounded up: the record does not
 * expire before the instant, and at most about a second after it (more if the write lands in a
 * later second), plus the offset of `clock` from the store's own. Refused when the instant is not in
 * the future or the TTL would be over `maxSeconds`.
 */
export function secondsUntil(at: Date, clock: InstantClock, place: InstantPlace, maxSeconds: number): number {
  checkFutureInstant(at, clock, place);
  const secondStartMs = Math.floor(clock.nowMs / 1000) * 1000;
  const seconds = Math.ceil((at.getTime() - secondStartMs) / 1000);
  if (seconds <= maxSeconds) return seconds;
  throw new TtlError(
    'TTL_AT_TOO_LATE',
    at,
    `the expiry instant ${at.toISOString()} is ${seconds} s away (by ${clock.name}), over ${place.store}'s ` +
      `largest TTL of ${maxSeconds} s; nothing was written`,
    {
      entity: place.entity.name,
      store: place.store,
      hint: `pass an instant at most ${maxSeconds} s from now, or 'never'`,
    },
  );
}

/** `{ at }` as the duration a stamping store writes now; every other kind unchanged. */
export function stampInstant(
  ttl: ResolvedWriteTtl,
  clock: InstantClock,
  place: InstantPlace,
  maxSeconds: number,
): StampedWriteTtl {
  if (ttl.kind !== 'at') return ttl;
  return { kind: 'duration', seconds: secondsUntil(ttl.at, clock, place, maxSeconds) };
}

/** This process's clock: what Redis PXAT, MongoDB dates and Cassandra's computed TTL are judged with. */
export function clientClock(): InstantClock {
  return { nowMs: Date.now(), name: "this process's clock" };
}
