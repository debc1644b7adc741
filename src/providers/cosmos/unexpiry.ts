import type { Database } from '@azure/cosmos';
import { withUnexpiry } from '../../core/plan-consent';
import { ensureUnexpiryNeedsReview } from '../../runtime/ensure-collections';
import { countExpiringAtOnce } from './impact';
import { holdsItems } from './inspect';
import type { ContainerTtl } from './item-expiry';
import type { CosmosStep } from './step-payload';
import { STORE, TTL_ON_NO_DEFAULT } from './semantics';

/**
 * Whether changing DefaultTimeToLive `from` → `to` can make items that are due but not yet deleted
 * readable again. The service hides an expired item from every read at once and deletes it later
 * with spare request units, judging each item against the container setting as it is now: turning
 * TTL off brings back every item still stored, -1 brings back those that expired by the default,
 * a longer default those due under the old one but not the new.
 */
export function canExpireLater(from: ContainerTtl, to: ContainerTtl): boolean {
  if (from === null) return false;
  if (to === null) return true;
  if (from === TTL_ON_NO_DEFAULT) return false;
  return to === TTL_ON_NO_DEFAULT || to > from;
}

/** explain()'s sentence on un-expiry (issue 25). */
export const COSMOS_UNEXPIRY =
  'a longer DefaultTimeToLive, -1 or TTL turned off makes items that expired but are not yet deleted (the service deletes them with spare request units) readable again: such a step needs allowUnexpiry (CLI: --allow-unexpiry)';

const STEP_TEXT = 'items that expired but are not yet deleted become readable again';

/**
 * Labels a DefaultTimeToLive change that can bring items back; with `now` (plan({ counts: true })),
 * counts them: due under `from` and not under `to`. The service hides an expired item from queries
 * too, so there the count sees only what it can read (0 when every due item is hidden); the
 * protocol server, which never expires anything, counts them all.
 */
export async function labelUnexpiry(
  step: CosmosStep,
  database: Database,
  now: number | undefined,
): Promise<CosmosStep> {
  const payload = step.payload;
  if (payload.op !== 'set-default-ttl' || !canExpireLater(payload.from, payload.to)) return step;
  const back =
    now === undefined
      ? undefined
      : await countExpiringAtOnce(database.container(payload.container), payload.to, payload.from, now);
  return withUnexpiry(step, STEP_TEXT, back);
}

/**
 * ensureCollections(): a change that can bring items back waits for review (or allowUnexpiry)
 * unless the container is empty. Fail closed: the service's queries hide the due items, so they
 * cannot be counted there.
 */
export async function refuseUnexpiry(database: Database, steps: readonly CosmosStep[]): Promise<void> {
  for (const step of steps) {
    const payload = step.payload;
    if (payload.op !== 'set-default-ttl' || !canExpireLater(payload.from, payload.to)) continue;
    if (!(await holdsItems(database, payload.container))) continue;
    throw ensureUnexpiryNeedsReview(
      `the step "${step.summary}" can make items of container '${payload.container}' that expired but are not yet deleted readable again`,
      { store: STORE, entity: step.entity ?? undefined },
    );
  }
}

/** explain()'s price of a touch on read (issue 25). */
export const COSMOS_TOUCH = {
  support: 'conditional-write',
  how: 'the read, then for an item under the threshold its remaining ttl (a read) and one conditional write of its ttl (setTtl { extend }): the write resets _ts, is billed in request units like any write, and never overwrites a concurrent write',
} as const;
