import type { EnsureOptions } from '../providers/contract';
import { flagOptions } from '../runtime/arguments';
import { ensureCollections, ensureNeedsReview, ensureUnexpiryNeedsReview } from '../runtime/ensure-collections';
import type { ApplyResult, PlanStep } from './plan';
import { runContextOf, type PlanFlowRules } from './plan-flow-rules';
import { checkPlan, expiresStoredBy, runStep, unexpiresStoredBy, type CheckedStep } from './plan-gate';

/**
 * ensureCollections() on the plan flow: each round inspects, passes the steps through the gate
 * (a conflict refuses the run), judges the steps the step table says can make stored records
 * expire sooner against whether their collection holds any, and runs the steps by the table.
 */
export async function ensureThroughTable<Payload, D extends keyof Payload & string, Run, Scope, Held>(
  rules: PlanFlowRules<Payload, D, Run, Scope, Held>,
  given: unknown,
): Promise<ApplyResult> {
  const store = rules.steps.store;
  const options = flagOptions<EnsureOptions>(
    given,
    'ensureCollections()',
    { store },
    ['allowRetroactive', 'allowUnexpiry'],
    '{ allowRetroactive: true }',
  );
  const consent = {
    by: 'ensureCollections' as const,
    allowRetroactive: options.allowRetroactive === true,
    allowUnexpiry: options.allowUnexpiry === true,
  };
  return rules.hold((held) => {
    // The one failure of a round that was another process's change (then ensureCollections plans again).
    let raced: { readonly error: unknown } | undefined;
    return ensureCollections<PlanStep<Payload>, CheckedStep<Payload>>(
      {
        store,
        plan: () => rules.desired({ allowDestructive: false, counts: false }, held),
        // Consent is judged below, against the stored records: the gate parses and refuses conflicts.
        refuseConflicts: (steps) =>
          checkPlan(
            rules.steps,
            { store, target: rules.target, steps },
            { allowRetroactive: true, allowUnexpiry: true },
            rules.scope,
          ),
        refuseRetroactive: (steps) => refuseOverStoredRecords(rules, steps, held),
        refuseUnexpiry: (steps) => refuseUnexpiring(rules, steps, held),
        apply: async (steps, applied) => {
          raced = undefined;
          const picked = rules.ensure.pick ? rules.ensure.pick(steps) : steps;
          const run = await runContextOf(rules, picked, consent, held);
          for (const step of picked) {
            try {
              if (await runStep(rules.steps, step, run)) applied.push(step);
            } catch (error) {
              if (!rules.ensure.lostRace(error, step)) throw error;
              raced ??= { error };
              if (rules.ensure.afterLostRace === 'stop') throw error;
            }
          }
          if (raced) throw raced.error;
        },
        lostRace: (error) => raced !== undefined && raced.error === error,
      },
      options,
    );
  });
}

/**
 * A step the step table says can make stored records expire sooner runs without allowRetroactive
 * only where its collection holds nothing yet (created by the same plan, or empty).
 */
async function refuseOverStoredRecords<Payload, D extends keyof Payload & string, Run, Scope, Held>(
  rules: PlanFlowRules<Payload, D, Run, Scope, Held>,
  steps: readonly CheckedStep<Payload>[],
  held: Held,
): Promise<void> {
  const holds = new Map<string, boolean>(
    steps.filter((s) => /^create-(collection|container|table)$/.test(s.action)).map((s) => [s.collection, false]),
  );
  const review: CheckedStep<Payload>[] = [];
  for (const step of steps) {
    if (!expiresStoredBy(rules.steps, step)) continue;
    let holding = holds.get(step.collection);
    if (holding === undefined) {
      holding = rules.ensure.holdsRecords ? await rules.ensure.holdsRecords(step, held) : true;
      holds.set(step.collection, holding);
    }
    if (holding) review.push(step);
  }
  if (review.length === 0) return;
  if (rules.ensure.needsReview) throw rules.ensure.needsReview(review);
  throw ensureNeedsReview(
    review.map((s) => `${s.entity ?? s.collection}: ${s.summary} can make records already stored expire`).join('; '),
    { store: rules.steps.store, entity: review[0]?.entity ?? undefined },
  );
}

/**
 * A step that can make due-but-stored records readable again runs without allowUnexpiry only where
 * the store judges it harmless (its refuseUnexpiry reads what is stored); a store that does not
 * judge it gets the step table's word alone: such a step needs review (fail closed, as holdsRecords).
 */
async function refuseUnexpiring<Payload, D extends keyof Payload & string, Run, Scope, Held>(
  rules: PlanFlowRules<Payload, D, Run, Scope, Held>,
  steps: readonly CheckedStep<Payload>[],
  held: Held,
): Promise<void> {
  if (rules.ensure.refuseUnexpiry) return rules.ensure.refuseUnexpiry(steps, held);
  const run = rules.ensure.pick ? rules.ensure.pick(steps) : steps;
  const unexpiring = run.filter((step) => unexpiresStoredBy(rules.steps, step));
  if (unexpiring.length === 0) return;
  throw ensureUnexpiryNeedsReview(
    unexpiring.map((s) => `${s.entity ?? s.collection}: ${s.summary} can make due records readable again`).join('; '),
    { store: rules.steps.store, entity: unexpiring[0]?.entity ?? undefined },
  );
}
