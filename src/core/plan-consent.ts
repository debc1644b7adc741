import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import type { MigrationPlan, PlanStep } from '../explain/plan';

/** Cosmos DB's "TTL on, no default" value: items expire only by their own ttl. */
const ON_WITHOUT_DEFAULT = -1;

/**
 * Whether a TTL change from → to can make records already stored expire sooner: TTL switched on
 * over stored data, a default where there was none, or a shorter default. Off, -1 (per-item only)
 * and lengthening only make records live longer.
 */
function expiresSooner(from: number | null, to: number | null): boolean {
  if (to === null) return false;
  if (from === null) return true;
  if (to === ON_WITHOUT_DEFAULT) return false;
  if (from === ON_WITHOUT_DEFAULT) return true;
  return to < from;
}

/**
 * The steps of a plan that can make stored records expire at once: retroactive, expiring sooner,
 * on a collection that exists before the plan runs, and not counted as touching zero records.
 */
export function retroactiveSteps(plan: MigrationPlan): PlanStep[] {
  const created = new Set(
    plan.steps.filter((s) => /^create-(collection|container|table)$/.test(s.action)).map((s) => s.collection),
  );
  return plan.steps.filter(
    (s) =>
      s.effect?.kind === 'retroactive' &&
      s.ttl !== undefined &&
      expiresSooner(s.ttl.from, s.ttl.to) &&
      !created.has(s.collection) &&
      s.effect.affected !== 0,
  );
}

/** apply() refuses, before any step runs, a plan that makes stored records expire without allowRetroactive. */
export function refuseUnconsentedRetroactive(plan: MigrationPlan, allowRetroactive: boolean | undefined): void {
  if (allowRetroactive === true) return;
  const steps = retroactiveSteps(plan);
  if (steps.length === 0) return;
  const listed = steps
    .map((s) => {
      const counted = typeof s.effect?.affected === 'number' ? ` (${s.effect.affected} stored records affected)` : '';
      return `${s.entity ?? s.collection}: ${s.summary}${counted}`;
    })
    .join('; ');
  throw new LifespanError(
    ErrorCodes.PLAN_RETROACTIVE_NOT_ALLOWED,
    `apply() applied nothing: ${steps.length} step(s) can make records already stored expire at once: ${listed}`,
    {
      store: plan.store,
      entity: steps[0]?.entity ?? undefined,
      hint: 'review plan({ counts: true }) and apply it with { allowRetroactive: true } (CLI: --allow-retroactive)',
    },
  );
}
