import { LifespanError } from './errors';

/**
 * The refusals every store's apply() shares, worded once so a plan refused on one store reads
 * the same on every other (the later plan gate is to own the checks themselves).
 */

/** apply() of a plan that another store made. */
export function wrongStorePlan(planStore: unknown, store: string): LifespanError {
  return new LifespanError('PLAN_WRONG_STORE', `this plan was made for '${String(planStore)}', not for ${store}`, {
    store,
    hint: 'apply a plan with the store context that made it',
  });
}

/** apply() of a step this store did not make, or whose payload was edited after plan(). */
export function badPlanStep(store: string, detail: string, entity?: string | null): LifespanError {
  return new LifespanError('PLAN_BAD_STEP', detail, {
    store,
    entity: entity ?? undefined,
    hint: `apply a plan exactly as plan() of the ${store} store context returned it`,
  });
}
