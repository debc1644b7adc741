import type { ExplainEntry } from '../../explain/entry';
import { expiryMemberOf, withExpiryMember } from '../../explain/expiry-member';
import type { PerWriteTtl, ResolvedWriteTtl } from '../../model/per-write-ttl';
import type { EntityModel } from '../../model/types';
import { checkFutureInstant, clientClock, recordWriteTtl } from '../../runtime/write-instant';
import type { Doc } from './commands';
import type { DateMemberTtl, MongoTtl } from './compile';
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
export function mongoWriteTtl(
  entity: EntityModel,
  requested: PerWriteTtl | undefined,
  values: object = {},
): ResolvedWriteTtl {
  const ttl = recordWriteTtl(entity, requested, STORE, values);
  if (ttl.kind === 'at') checkFutureInstant(ttl, clientClock(), { entity, store: STORE });
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

/** The explain entry of an @ExpiresAt entity: a TTL index with expireAfterSeconds: 0 on the member. */
export function withMemberExpiry(entity: EntityModel, ttl: DateMemberTtl, entry: ExplainEntry): ExplainEntry {
  const member = expiryMemberOf(entity);
  if (!member) return entry;
  return withExpiryMember(entry, member, {
    keeps:
      `a TTL index on ${ttl.field} with expireAfterSeconds: 0 (${ttl.index.name}); the TTL monitor deletes a ` +
      `document about every 60 s once its ${ttl.field} has passed, and until then queries still return it ` +
      '(unless hideExpired); a null or missing date never expires',
    plainWrite: `${ttl.field} is stored as given; the TTL index (expireAfterSeconds: 0) expires the document at it`,
    changeEffect: {
      kind: 'retroactive',
      text:
        `the TTL index judges the ${ttl.field} of every stored document: creating it (e.g. switching from a ` +
        `duration to @ExpiresAt) makes every stored document whose ${ttl.field} has passed eligible for deletion ` +
        'at the next monitor pass',
    },
  });
}
