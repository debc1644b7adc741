/**
 * Cosmos expiry arithmetic, as the service applies it: an item expires at _ts + its effective ttl,
 * where the effective ttl is its own `ttl` property if present, else the container DefaultTimeToLive;
 * -1 means never, and nothing expires while the container has no DefaultTimeToLive.
 * Pure functions: every caller passes "now" in epoch seconds.
 */
import type { StampedWriteTtl } from '../../runtime/write-instant';
import { MAX_COSMOS_TTL, TTL_ON_NO_DEFAULT } from './semantics';

/** A container's live DefaultTimeToLive: null when the property is absent (TTL off). */
export type ContainerTtl = number | null;

/** What expiry depends on in a stored item. */
export interface StoredExpiry {
  readonly _ts: number;
  readonly ttl?: unknown;
}

/** Seconds an item lives after its _ts, or null when it never expires. */
export function effectiveTtl(itemTtl: unknown, containerTtl: ContainerTtl): number | null {
  if (containerTtl === null) return null;
  if (typeof itemTtl === 'number') return itemTtl === TTL_ON_NO_DEFAULT ? null : itemTtl;
  return containerTtl === TTL_ON_NO_DEFAULT ? null : containerTtl;
}

/** Seconds left (≤ 0 once due), or null when the item never expires. */
export function remainingSeconds(item: StoredExpiry, containerTtl: ContainerTtl, nowSeconds: number): number | null {
  const ttl = effectiveTtl(item.ttl, containerTtl);
  return ttl === null ? null : item._ts + ttl - nowSeconds;
}

/** Due at `now` (inclusive: an item whose _ts + ttl equals now is expired). */
export function isExpired(item: StoredExpiry, containerTtl: ContainerTtl, nowSeconds: number): boolean {
  const left = remainingSeconds(item, containerTtl, nowSeconds);
  return left !== null && left <= 0;
}

/** The ttl property of a plain write: a number, or undefined for "no ttl property". Never 0 or null. */
export function plainWriteTtl(ttl: StampedWriteTtl & { kind: 'duration' | 'default' | 'never' }): number | undefined {
  if (ttl.kind === 'duration') return ttl.seconds;
  if (ttl.kind === 'never') return TTL_ON_NO_DEFAULT;
  return undefined;
}

/**
 * The ttl property that extends an item's life to max(current expiry, now + seconds) when written
 * at `now` (the server time read with the item). An item that never expires keeps its property.
 */
export function extendedTtl(
  item: StoredExpiry,
  containerTtl: ContainerTtl,
  seconds: number,
  nowSeconds: number,
): number | undefined {
  const left = remainingSeconds(item, containerTtl, nowSeconds);
  if (left === null) return typeof item.ttl === 'number' ? item.ttl : undefined;
  return Math.min(MAX_COSMOS_TTL, Math.max(left, seconds));
}

/**
 * The ttl property that keeps an item's expiry instant when it is rewritten at `now` (the server
 * time read with the item): its remaining seconds, since the write resets _ts to about now. The
 * instant stays to the second, moved later only by whole seconds passing between the read and the
 * write. An item that never expires keeps its property. Callers treat a due item (≤ 0 left) as absent.
 */
export function keptTtl(item: StoredExpiry, containerTtl: ContainerTtl, nowSeconds: number): number | undefined {
  const left = remainingSeconds(item, containerTtl, nowSeconds);
  if (left === null) return typeof item.ttl === 'number' ? item.ttl : undefined;
  return Math.min(MAX_COSMOS_TTL, Math.max(1, left));
}

/**
 * Whether changing DefaultTimeToLive `from` → `to` can make an item already stored expire sooner
 * (the service re-judges stored items against their _ts): turning TTL on (item ttl values apply
 * again, a default starts), giving items without their own ttl a default where they had none, or
 * shortening the default. Turning TTL off, -1 and lengthening only make items live longer.
 */
export function canExpireSooner(from: ContainerTtl, to: ContainerTtl): boolean {
  if (to === null) return false;
  if (from === null) return true;
  if (to === TTL_ON_NO_DEFAULT) return false;
  if (from === TTL_ON_NO_DEFAULT) return true;
  return to < from;
}

export interface SqlParameter {
  readonly name: string;
  readonly value: number;
}

/** A WHERE fragment over alias `c` with its parameters. */
export interface SqlFilter {
  readonly sql: string;
  readonly parameters: readonly SqlParameter[];
}

/**
 * Items due at `nowSeconds` under a container setting, as a query filter (null: nothing can expire).
 * The default part compares _ts with a cutoff (now − DefaultTimeToLive) computed by the caller from
 * the server clock it passes, because the query engine of the in-process server has no date functions.
 */
export function expiredFilter(containerTtl: ContainerTtl, nowSeconds: number, tag = ''): SqlFilter | null {
  if (containerTtl === null) return null;
  const now = { name: '@now', value: nowSeconds };
  const own = '(IS_NUMBER(c.ttl) AND c.ttl > 0 AND c._ts + c.ttl <= @now)';
  if (containerTtl === TTL_ON_NO_DEFAULT) return { sql: own, parameters: [now] };
  const cutoff = { name: `@cutoff${tag}`, value: nowSeconds - containerTtl };
  return {
    sql: `(${own} OR (NOT IS_DEFINED(c.ttl) AND c._ts <= ${cutoff.name}))`,
    parameters: [now, cutoff],
  };
}

/** Epoch seconds of an HTTP Date header (the server's clock), or undefined when absent or unreadable. */
export function secondsOfHttpDate(header: unknown): number | undefined {
  if (typeof header !== 'string') return undefined;
  const ms = Date.parse(header);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export function clientNowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
