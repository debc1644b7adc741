import type { PerWriteTtl, ResolvedWriteTtl } from '../../model/per-write-ttl';
import type { EntityModel } from '../../model/types';
import { checkFutureInstant, clientClock } from '../../runtime/write-instant';
import { writeTtlFor } from '../../runtime/write-ttl';
import type { Doc } from './commands';
import type { MongoTtl } from './compile';
import { isDate } from './expiry-expressions';
import { STORE } from './semantics';

/** What explain() says about expiry instants on MongoDB (the `{ at }` row and repository.expiresAt()). */
export const INSTANT_SAY = {
  atHow:
    'set the expiry-date field to the instant itself (the TTL index has expireAfterSeconds: 0): exact to the ' +
    "millisecond; an instant not after this process's clock is refused before anything is sent (the TTL monitor " +
    'judges the stored date by the server clock, so a skew only moves that check)',
  readBack:
    'expiresAt(key): the expiry-date field (or the date member + expireAfterSeconds), read in one aggregation, ' +
    'precise to the millisecond',
} as const;

/**
 * The per-write TTL of one write, `{ at }` checked to be in the future: MongoDB stores the date as
 * given, and a past date would be deleted at the monitor's next pass.
 */
export function mongoWriteTtl(entity: EntityModel, requested: PerWriteTtl | undefined): ResolvedWriteTtl {
  const ttl = writeTtlFor(entity, requested, STORE);
  if (ttl.kind === 'at') checkFutureInstant(ttl.at, clientClock(), { entity, store: STORE });
  return ttl;
}

/** The instant a document expires at, as an aggregation expression: null when it never does. */
export function expiresAtExpression(ttl: MongoTtl | null): unknown {
  if (ttl === null) return { $literal: null };
  const field = `$${ttl.index.field}`;
  const expiresAt = ttl.kind === 'date-member' ? { $add: [field, ttl.seconds * 1000] } : field;
  return { $cond: [isDate(field), expiresAt, null] };
}

/** The pipeline that reads one document's expiry instant; `match` selects the live document. */
export function expiryInstantPipeline(match: Doc, ttl: MongoTtl | null): Doc[] {
  return [{ $match: match }, { $limit: 1 }, { $project: { _id: 0, expiresAt: expiresAtExpression(ttl) } }];
}
