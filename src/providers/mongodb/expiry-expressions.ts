import type { Doc } from './commands';
import type { MongoTtl } from './compile';

/**
 * Aggregation expressions about expiry, evaluated by the server against its own clock ($$NOW), so
 * reads, writes and the TTL monitor agree on "now" and client clock skew moves nothing.
 */

export const NOW = '$$NOW';
export const REMOVE = '$$REMOVE';

/** $$NOW + n seconds ($add with a date counts the other operands in milliseconds). */
export function nowPlus(seconds: number): Doc {
  return { $add: [NOW, seconds * 1000] };
}

export function isDate(expression: unknown): Doc {
  return { $eq: [{ $type: expression }, 'date'] };
}

/**
 * True while a document is live. The TTL monitor deletes a document once its indexed date plus
 * expireAfterSeconds has passed; a document whose field is missing or not a date never expires.
 */
export function liveExpression(ttl: MongoTtl | null): Doc | null {
  if (ttl === null) return null;
  const field = `$${ttl.index.field}`;
  const expiresAt = ttl.kind === 'date-member' ? { $add: [field, ttl.seconds * 1000] } : field;
  return { $cond: [isDate(field), { $gt: [expiresAt, NOW] }, true] };
}

/** Milliseconds until the document expires (negative once due), or null when it never expires. */
export function remainingMsExpression(ttl: MongoTtl | null): unknown {
  if (ttl === null) return { $literal: null };
  const field = `$${ttl.index.field}`;
  const expiresAt = ttl.kind === 'date-member' ? { $add: [field, ttl.seconds * 1000] } : field;
  return { $cond: [isDate(field), { $subtract: [expiresAt, NOW] }, null] };
}

/** Adds the live predicate to a read filter when the store hides expired documents. */
export function withLive(filter: Doc, ttl: MongoTtl | null, hideExpired: boolean): Doc {
  const live = hideExpired ? liveExpression(ttl) : null;
  return live === null ? filter : { ...filter, $expr: live };
}

/** Matches documents that are due but not yet deleted by the monitor. */
export function expiredFilter(filter: Doc, ttl: MongoTtl): Doc {
  return { ...filter, $expr: { $not: [liveExpression(ttl)] } };
}

/**
 * True inside an upsert's pipeline when the document is being created: an upsert starts from the
 * filter's equality fields, here `_id` alone. With hideExpired a due-but-undeleted document counts
 * as absent too, as it does for every read.
 */
export function isNewExpression(ttl: MongoTtl | null, hideExpired: boolean): unknown {
  const onlyId = { $eq: [{ $size: { $objectToArray: '$$ROOT' } }, 1] };
  const live = hideExpired ? liveExpression(ttl) : null;
  return live === null ? onlyId : { $or: [onlyId, { $not: [live] }] };
}
