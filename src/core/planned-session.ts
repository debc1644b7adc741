import type { ApplyOptions, EnsureOptions, PlanOptions } from '../providers/contract';
import type { ApplyResult, MigrationPlan, ReviewedPlan } from './plan';

/** What a session reaches the plan flow through: a PlanFlow of the store's own payloads. */
interface Flow {
  plan(given?: PlanOptions): Promise<MigrationPlan>;
  review(plan: MigrationPlan, options?: ApplyOptions): ReviewedPlan;
  apply(plan: MigrationPlan, options?: ApplyOptions): Promise<ApplyResult>;
  ensureCollections(options?: EnsureOptions): Promise<ApplyResult>;
}

/**
 * The plan half of a store session (StoreSession): plan(), checkPlan(), review(), apply() and
 * ensureCollections() are the core's plan flow (plan-flow.ts), so a store writes its rules and
 * none of these. A store that must check something first (e.g. that it is still open) overrides one.
 */
export abstract class PlannedSession {
  protected abstract readonly flow: Flow;

  plan(given?: PlanOptions): Promise<MigrationPlan> {
    return this.flow.plan(given);
  }

  checkPlan(plan: MigrationPlan, options?: ApplyOptions): void {
    this.flow.review(plan, options);
  }

  review(plan: MigrationPlan, options?: ApplyOptions): ReviewedPlan {
    return this.flow.review(plan, options);
  }

  apply(plan: MigrationPlan, options?: ApplyOptions): Promise<ApplyResult> {
    return this.flow.apply(plan, options);
  }

  ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    return this.flow.ensureCollections(options);
  }
}
