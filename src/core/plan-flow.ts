import { optionsArgument, planOptions } from '../runtime/arguments';
import type { ApplyOptions, EnsureOptions, PlanOptions } from '../providers/contract';
import { ensureThroughTable } from './ensure-flow';
import type { ApplyResult, MigrationPlan, ReviewedPlan } from './plan';
import { runContextOf, type PlanFlowRules, type RunConsent } from './plan-flow-rules';
import { checkPlan, runSteps, type CheckedStep, type PlanConsent } from './plan-gate';

/**
 * The one plan flow of every store (issue 28): plan() inspects, the gate judges (check → consent),
 * and only the steps judged run, by the store's step table. apply() judges a plan once; the CLI
 * judges every store's plan once, before any is applied (review(), then apply() of each review).
 * A store supplies its rules (PlanFlowRules) and builds no plan, and judges no step, by hand.
 */
export class PlanFlow<Payload, D extends keyof Payload & string, Run, Scope, Held> {
  constructor(private readonly rules: PlanFlowRules<Payload, D, Run, Scope, Held>) {}

  get store(): string {
    return this.rules.steps.store;
  }

  async plan(given?: PlanOptions): Promise<MigrationPlan> {
    const options = planOptions(given, this.store);
    const demand = { allowDestructive: options.allowDestructive === true, counts: options.counts === true };
    return { store: this.store, target: this.rules.target, steps: await this.rules.desired(demand) };
  }

  /** The gate's verdict on a plan (throws its refusal); apply() of the review runs what was judged. */
  review(plan: MigrationPlan, options?: ApplyOptions): ReviewedPlan {
    const steps = checkPlan(this.rules.steps, plan, options, this.rules.scope);
    // The gate has checked that the options are an options object (or absent).
    const given = optionsArgument<PlanConsent>(options, 'apply()', { store: this.store }, '{ allowDestructive: true }');
    const consent: RunConsent = {
      by: 'apply',
      allowRetroactive: given.allowRetroactive === true,
      allowUnexpiry: given.allowUnexpiry === true,
    };
    // What runs is the judged list itself, frozen: a caller editing the review it was handed (its
    // steps are this list) cannot add or swap a step the gate did not judge.
    const judged = Object.freeze([...steps]);
    return { store: this.store, steps: judged, apply: () => this.run(judged, consent) };
  }

  apply(plan: MigrationPlan, options?: ApplyOptions): Promise<ApplyResult> {
    return this.review(plan, options).apply();
  }

  /** Creates what is missing and changes what can change in place, through the step table. */
  async ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    const result = await ensureThroughTable(this.rules, options);
    await this.rules.afterRun?.();
    return result;
  }

  private async run(steps: readonly CheckedStep<Payload>[], consent: RunConsent): Promise<ApplyResult> {
    const result = await this.rules.hold(async (held) => {
      return runSteps(this.rules.steps, steps, await runContextOf(this.rules, steps, consent, held));
    });
    await this.rules.afterRun?.();
    return result;
  }
}
