import { checkPlan, runSteps, type CheckedStep } from '../../core/plan-gate';
import type { ApplyResult, MigrationPlan } from '../../core/plan';
import type { ApplyOptions } from '../contract';
import type { Executor } from './executor';
import type { CassandraStepPayload } from './plan';
import { CASSANDRA_STEPS } from './steps';

/** The plan's steps once the plan gate has passed them all (nothing has run). */
export function checkedSteps(plan: MigrationPlan, options: ApplyOptions = {}): CheckedStep<CassandraStepPayload>[] {
  return checkPlan(CASSANDRA_STEPS, plan, options, undefined);
}

/** Runs a plan's steps in order, each statement followed by a wait for schema agreement. */
export async function applyPlan(executor: Executor, plan: MigrationPlan, options: ApplyOptions): Promise<ApplyResult> {
  return runSteps(CASSANDRA_STEPS, checkedSteps(plan, options), executor);
}
