import { ErrorCodes } from '../error-codes';
import { LifespanError, type ErrorPlace } from '../errors';
import type { ApplyResult, PlanStep } from '../core/plan';
import type { EnsureOptions } from '../providers/contract';
import { flagOptions } from './arguments';

/**
 * How many times ensureCollections() inspects and applies before giving up on a race. Losing a race
 * means another process changed the same schema between this one's inspection and its apply (two
 * instances starting at once): the next inspection sees that work, so a second round normally has
 * nothing left to do, and a third absorbs one more overlapping process. A race lost three times
 * in a row is not two starts overlapping (e.g. two models fighting over one collection), so it is
 * reported instead of looped on. The same number on every store: nothing about the race differs.
 */
export const ENSURE_ROUNDS = 3;

/**
 * What one store supplies to ensureCollections(); the order and the retry are the same everywhere.
 * `Checked`: the steps as the plan gate passed them (what is judged further and applied).
 */
export interface EnsureFlow<Step extends PlanStep, Checked extends PlanStep = Step> {
  readonly store: string;
  /** Inspects the store: the steps from what is live to the model, destructive ones left out. */
  plan(): Promise<readonly Step[]>;
  /** Throws (nothing applied yet) when a step cannot be made in place; else the steps as checked. */
  refuseConflicts(steps: readonly Step[]): readonly Checked[];
  /**
   * Throws ENSURE_NEEDS_REVIEW (nothing applied yet) when a step would make records already stored
   * expire at once; skipped with `allowRetroactive`. Absent on a store where no step can do that.
   */
  refuseRetroactive?(steps: readonly Checked[]): Promise<void>;
  /**
   * Throws ENSURE_NEEDS_REVIEW (nothing applied yet) when a step would make records that are due
   * but still stored readable again; skipped with `allowUnexpiry`. Absent where no step can.
   */
  refuseUnexpiry?(steps: readonly Checked[]): Promise<void>;
  /** Applies the steps, adding each one applied to `applied` as it goes. */
  apply(steps: readonly Checked[], applied: PlanStep[]): Promise<void>;
  /** Whether a failure of apply() means another process changed the schema since plan(). */
  lostRace(error: unknown): boolean;
}

/** Creates what is missing and changes what can change in place, never dropping anything. */
export async function ensureCollections<Step extends PlanStep, Checked extends PlanStep = Step>(
  flow: EnsureFlow<Step, Checked>,
  given: unknown,
): Promise<ApplyResult> {
  const options = flagOptions<EnsureOptions>(
    given,
    'ensureCollections()',
    { store: flow.store },
    ['allowRetroactive', 'allowUnexpiry'],
    '{ allowRetroactive: true }',
  );
  const applied: PlanStep[] = [];
  for (let round = 1; ; round += 1) {
    const planned = await flow.plan();
    if (planned.length === 0) return { applied };
    const steps = flow.refuseConflicts(planned);
    if (options.allowRetroactive !== true) await flow.refuseRetroactive?.(steps);
    if (options.allowUnexpiry !== true) await flow.refuseUnexpiry?.(steps);
    try {
      await flow.apply(steps, applied);
      return { applied };
    } catch (error) {
      if (!flow.lostRace(error) || round >= ENSURE_ROUNDS) throw error;
    }
  }
}

/** The refusal of a step that makes due-but-stored records readable again (EnsureFlow.refuseUnexpiry). */
export function ensureUnexpiryNeedsReview(why: string, place: ErrorPlace): LifespanError {
  return new LifespanError(ErrorCodes.ENSURE_NEEDS_REVIEW, `ensureCollections() applied nothing: ${why}`, {
    ...place,
    hint: 'use plan({ counts: true }) + apply() after review, or ensureCollections({ allowUnexpiry: true })',
  });
}

/** The refusal of a step over stored records (see EnsureFlow.refuseRetroactive), worded once. */
export function ensureNeedsReview(why: string, place: ErrorPlace): LifespanError {
  return new LifespanError(ErrorCodes.ENSURE_NEEDS_REVIEW, `ensureCollections() applied nothing: ${why}`, {
    ...place,
    hint: 'use plan() + apply() after review, or ensureCollections({ allowRetroactive: true })',
  });
}
