import type { ExplainEntry } from '../../explain/entry';
import { expiryMemberOf, withExpiryMember } from '../../explain/expiry-member';
import type { ResolvedWriteTtl } from '../../model/per-write-ttl';
import type { EntityModel } from '../../model/types';
import { checkFutureInstant, clientClock, stampInstant, type StampedWriteTtl } from '../../runtime/write-instant';
import type { CosmosContext } from './context';
import { effectiveTtl, type ContainerTtl, type StoredExpiry } from './item-expiry';
import { MAX_COSMOS_TTL, STORE } from './semantics';

/** What explain() says about expiry instants on Cosmos DB (the `{ at }` row and repository.expiresAt()). */
export const INSTANT_SAY = {
  atHow:
    'item ttl = the seconds from the current second of the server clock to the instant, rounded up, computed when the write is sent ' +
    '(the server clock is estimated from the Date headers of its responses, within about 1 s); the item expires ' +
    'at _ts + ttl, so within about 2 s after the instant (its _ts is the second the write lands); an instant not ' +
    "in the future by that clock or by this process's is refused and nothing is written",
  readBack: "expiresAt(key): the item's _ts + its effective ttl (own ttl, else DefaultTimeToLive), precise to 1 s",
} as const;

/**
 * `{ at }` as the item ttl a write sends now, judged by the server clock lifespan estimates
 * (the item counts its ttl from _ts, the second the service stamps the write with).
 */
export async function stampedTtl(
  context: CosmosContext,
  container: string,
  entity: EntityModel,
  ttl: ResolvedWriteTtl,
): Promise<StampedWriteTtl> {
  if (ttl.kind !== 'at') return ttl;
  // The estimate is within about a second: an instant not after this process's clock is refused too.
  checkFutureInstant(ttl, clientClock(), { entity, store: STORE });
  // A fresh estimate when none is recent (one read of the container), then the millisecond estimate.
  const serverSeconds = await context.serverNowSeconds(container);
  const nowMs = context.clock.estimateMs() ?? serverSeconds * 1000 + 500;
  const clock = { nowMs, name: 'the Cosmos DB server clock (estimated from its Date headers)' };
  return stampInstant(ttl, clock, { entity, store: STORE }, MAX_COSMOS_TTL);
}

/** When a stored item expires: _ts + its effective ttl, or null when it never does. */
export function itemExpiryInstant(item: StoredExpiry, containerTtl: ContainerTtl): Date | null {
  const ttl = effectiveTtl(item.ttl, containerTtl);
  return ttl === null ? null : new Date((item._ts + ttl) * 1000);
}

/** The explain entry of an @ExpiresAt entity: DefaultTimeToLive -1, each write sets the item ttl from the member. */
export function withMemberExpiry(entity: EntityModel, entry: ExplainEntry): ExplainEntry {
  const member = expiryMemberOf(entity);
  if (!member) return entry;
  return withExpiryMember(entry, member, {
    keeps:
      `the container has DefaultTimeToLive -1 and every write sets the item ttl from ${member}: ${INSTANT_SAY.atHow}; ` +
      'a null member writes ttl -1 (never)',
    plainWrite: `item ttl computed from ${member} at write time (-1 for null)`,
  });
}
