import { TtlError, UnsupportedTtlError } from '../errors';
import type { PerWriteTtl, ResolvedWriteTtl } from '../model/per-write-ttl';
import type { EntityModel } from '../model/types';
import { writeTtlFor } from './write-ttl';

/** An instant to expire at: a per-write `{ at }`, or an @ExpiresAt member's value (`member`). */
export type AtTtl = Extract<ResolvedWriteTtl, { kind: 'at' }>;

/** A per-write TTL once an instant is turned into the duration a store stamps (a store that counts a TTL from its own write time). */
export type StampedWriteTtl = Exclude<ResolvedWriteTtl, { kind: 'at' }>;

/** Which clock an instant is judged with, in the words of the messages and explain(). */
export interface InstantClock {
  /** Epoch milliseconds now, by that clock. */
  readonly nowMs: number;
  /** E.g. "this process's clock", "the server clock (estimated from its Date headers)". */
  readonly name: string;
}

interface InstantPlace {
  readonly entity: EntityModel;
  readonly store: string;
}

/**
 * Refuses an instant that is not after `clock.nowMs`: it would expire the record at once, and on
 * some stores a computed TTL of 0 would even mean "never". Nothing has been written when this throws.
 */
export function checkFutureInstant(at: AtTtl, clock: InstantClock, place: InstantPlace): void {
  if (at.at.getTime() > clock.nowMs) return;
  const what = at.member ? `${at.member} (@ExpiresAt), the expiry instant` : 'the expiry instant';
  throw new TtlError(
    'TTL_AT_NOT_FUTURE',
    at.at,
    `${what} ${at.at.toISOString()} is not in the future (now by ${clock.name}: ` +
      `${new Date(clock.nowMs).toISOString()}); nothing was written`,
    {
      entity: place.entity.name,
      store: place.store,
      ...(at.member ? { member: at.member } : {}),
      hint: at.member
        ? `set ${at.member} to a later instant (or null: never expires), or delete the record if it should be gone now`
        : 'pass a later instant, or delete the record if it should be gone now',
    },
  );
}

/**
 * The whole seconds of TTL that make a record written now expire at `at`. A stamping store counts
 * a TTL from the whole second of the write (floor(now in s) + ttl, or the server's write second + ttl),
 * so the TTL is counted from the start of the current second and rounded up: the record does not
 * expire before the instant, and at most about a second after it (more if the write lands in a
 * later second), plus the offset of `clock` from the store's own. Refused when the instant is not in
 * the future or the TTL would be over `maxSeconds`.
 */
export function secondsUntil(ttl: AtTtl, clock: InstantClock, place: InstantPlace, maxSeconds: number): number {
  checkFutureInstant(ttl, clock, place);
  const { at } = ttl;
  const secondStartMs = Math.floor(clock.nowMs / 1000) * 1000;
  const seconds = Math.ceil((at.getTime() - secondStartMs) / 1000);
  if (seconds <= maxSeconds) return seconds;
  throw new TtlError(
    'TTL_AT_TOO_LATE',
    at,
    `${ttl.member ? `${ttl.member} (@ExpiresAt), ` : ''}the expiry instant ${at.toISOString()} is ${seconds} s away (by ${clock.name}), over ${place.store}'s ` +
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
  return { kind: 'duration', seconds: secondsUntil(ttl, clock, place, maxSeconds) };
}

/** This process's clock: what native instants and TTLs computed here are judged with. */
export function clientClock(): InstantClock {
  return { nowMs: Date.now(), name: "this process's clock" };
}

/**
 * The TTL of one write of `values`: the per-write value as writeTtlFor resolves it, and for an
 * entity with an expiry member (@ExpiresAt) the default becomes that member's instant (`{ at }`,
 * judged like any other instant), or 'never' when it holds null.
 */
export function recordWriteTtl(
  entity: EntityModel,
  requested: PerWriteTtl | undefined,
  store: string,
  values: object,
): ResolvedWriteTtl {
  const ttl = writeTtlFor(entity, requested, store);
  return ttl.kind === 'default' ? (memberInstant(entity, store, values) ?? ttl) : ttl;
}

/**
 * The expiry an @ExpiresAt member gives a write of `values`: `{ at }` its instant, 'never' for
 * null; null when the entity has no expiry member.
 */
export function memberInstant(entity: EntityModel, store: string, values: object): ResolvedWriteTtl | null {
  const member = entity.ttl?.instantMember;
  if (!member) return null;
  const value = (values as Record<string, unknown>)[member];
  // The codec refuses a member of the wrong type; a null (nullable member) never expires.
  if (!(value instanceof Date)) return NEVER;
  if (Number.isNaN(value.getTime())) {
    throw new TtlError('TTL_INVALID_AT', value, `${member} (@ExpiresAt) is an invalid Date; nothing was written`, {
      entity: entity.name,
      store,
      member,
      hint: `set ${member} to the instant the record expires at, or null for never`,
    });
  }
  return { kind: 'at', at: new Date(value.getTime()), member };
}

const NEVER: ResolvedWriteTtl = Object.freeze({ kind: 'never' });

/** setTtl() on an entity whose expiry is a member's value: refused, the member is the one place it lives. */
export function refuseSetTtlOnMember(entity: EntityModel, store: string): void {
  const member = entity.ttl?.instantMember;
  if (!member) return;
  throw new UnsupportedTtlError(
    'TTL_SET_UNSUPPORTED',
    `setTtl is not supported: ${entity.name} expires at its ${member} (@ExpiresAt)`,
    { entity: entity.name, store, member, hint: `set ${member} to the new instant and write the record` },
  );
}
