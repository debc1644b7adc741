import { LifespanError } from '../errors';
import type { PlanStep } from './plan';

/**
 * The refusals of the plan gate, worded once, so a plan refused on one store reads (and is caught)
 * the same on every other: one code and one class per failure.
 */

/** apply() of something that is not a plan (no object, or no list of steps). */
export function notAPlan(store: string): LifespanError {
  return new LifespanError('BAD_ARGUMENT', 'apply() needs the plan that plan() returned', {
    store,
    hint: 'const plan = await db.plan(); review it; await db.apply(plan)',
  });
}

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

/** A plan with a step the store cannot make in place: nothing of it runs. */
export function planConflict(store: string, conflicts: readonly PlanStep[], hint: string): LifespanError {
  return new LifespanError(
    'PLAN_CONFLICT',
    `the plan has ${conflicts.length} step(s) ${store} cannot make in place, so nothing was applied: ${listed(conflicts)}`,
    { store, entity: conflicts[0]?.entity ?? undefined, hint },
  );
}

/** A plan with a step that can lose data, applied without allowDestructive. */
export function destructiveNotAllowed(store: string, destructive: readonly PlanStep[]): LifespanError {
  return new LifespanError(
    'PLAN_DESTRUCTIVE_NOT_ALLOWED',
    `the plan has ${destructive.length} destructive step(s), so nothing was applied: ${listed(destructive)}`,
    {
      store,
      entity: destructive[0]?.entity ?? undefined,
      hint: 'review them, then apply(plan, { allowDestructive: true }) (CLI: --allow-destructive)',
    },
  );
}

function listed(steps: readonly PlanStep[]): string {
  return steps.map((s) => s.summary).join('; ');
}
