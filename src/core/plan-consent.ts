import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import type { PlanStep } from './plan';

/** Whether a TTL change from → to can make stored records expire sooner, as the store counts TTL values. */
export type ExpiresSooner = (from: number | null, to: number | null) => boolean;

/**
 * The usual reading of a TTL change: switched on, a default where there was none, or a shorter
 * one. A negative value, where a store has one, is "no default" (records expire only by their own
 * TTL). A store whose TTL values mean something else declares its own (StepRules.expiresSooner).
 */
export const shorterTtl: ExpiresSooner = (from, to) => {
  if (to === null || to < 0) return false;
  return from === null || from < 0 || to < from;
};

/**
 * The steps whose labels say they make stored records expire at once: retroactive, expiring
 * sooner, on a collection that exists before the plan runs, and not counted as touching zero
 * records. Labels are editable, so this only adds to what the payloads say (StepHandler.expiresStored).
 */
export function labelledRetroactive(steps: readonly PlanStep[], expiresSooner: ExpiresSooner): PlanStep[] {
  const created = new Set(
    steps.filter((s) => /^create-(collection|container|table)$/.test(s.action)).map((s) => s.collection),
  );
  return steps.filter(
    (s) =>
      s.effect?.kind === 'retroactive' &&
      s.ttl !== undefined &&
      expiresSooner(s.ttl.from, s.ttl.to) &&
      !created.has(s.collection) &&
      s.effect.affected !== 0,
  );
}

/** apply() refuses, before any step runs, a plan that makes stored records expire without allowRetroactive. */
export function refuseUnconsentedRetroactive(
  store: string,
  steps: readonly PlanStep[],
  allowRetroactive: boolean | undefined,
): void {
  if (allowRetroactive === true || steps.length === 0) return;
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
      store,
      entity: steps[0]?.entity ?? undefined,
      hint: 'review plan({ counts: true }) and apply it with { allowRetroactive: true } (CLI: --allow-retroactive)',
    },
  );
}

// Issue 25: un-expiry, judged like the retroactive rule.

/** Whether a TTL change from → to can make records that are due but still stored live again. */
export type ExpiresLater = (from: number | null, to: number | null) => boolean;

/**
 * The usual reading: a positive TTL lengthened, switched off, or replaced by "no default" (a
 * negative value). A store whose TTL values mean something else declares its own.
 */
export const longerTtl: ExpiresLater = (from, to) => {
  if (from === null || from < 0) return false;
  return to === null || to < 0 || to > from;
};

/**
 * The steps whose labels say they make due-but-stored records readable again, on a collection that
 * exists before the plan runs, counted as reaching at least one record. Labels are editable, so
 * this only adds to what the payloads say (StepHandler.unexpiresStored).
 */
export function labelledUnexpiry(steps: readonly PlanStep[]): PlanStep[] {
  const created = new Set(
    steps.filter((s) => /^create-(collection|container|table)$/.test(s.action)).map((s) => s.collection),
  );
  // Counted: a step whose count found due records. The payload rule (or a store's live judgement)
  // covers an uncounted one.
  return steps.filter((s) => {
    const n = s.effect?.unexpired;
    return s.effect?.unexpires === true && !created.has(s.collection) && typeof n === 'number' && n > 0;
  });
}

/** apply() refuses, before any step runs, a plan that makes due-but-stored records readable again without allowUnexpiry. */
export function refuseUnconsentedUnexpiry(
  store: string,
  steps: readonly PlanStep[],
  allowUnexpiry: boolean | undefined,
): void {
  if (allowUnexpiry === true || steps.length === 0) return;
  const listed = steps
    .map((s) => {
      const n = s.effect?.unexpired;
      const counted = typeof n === 'number' ? ` (${n} due records readable again)` : '';
      return `${s.entity ?? s.collection}: ${s.summary}${counted}`;
    })
    .join('; ');
  throw new LifespanError(
    ErrorCodes.PLAN_UNEXPIRY_NOT_ALLOWED,
    `apply() applied nothing: ${steps.length} step(s) can make records that are due but still stored readable again (un-expiry): ${listed}`,
    {
      store,
      entity: steps[0]?.entity ?? undefined,
      hint: 'review plan({ counts: true }) and apply it with { allowUnexpiry: true } (CLI: --allow-unexpiry)',
    },
  );
}

/**
 * The step labelled as an un-expiry (its effect says so, with the count when one was made): what
 * plan and diff show and the gate's labelled rule reads.
 */
export function withUnexpiry<S extends PlanStep>(step: S, why: string, unexpired?: number | null): S {
  const effect = step.effect ?? { kind: 'retroactive' as const, text: why, verified: false };
  const text = effect.text.includes(why) ? effect.text : `${effect.text}; ${why}`;
  return {
    ...step,
    effect: { ...effect, text, unexpires: true, ...(unexpired === undefined ? {} : { unexpired }) },
  };
}
