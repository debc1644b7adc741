import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { badPlanStep, wrongStorePlan } from '../../plan-errors';
import type { ApplyResult, MigrationPlan, PlanStep } from '../../explain/plan';
import type { Executor } from './executor';
import type { CassandraPlanStep, CassandraStepPayload } from './plan';
import { STORE } from './semantics';

/** Runs a plan's steps in order, each statement followed by a wait for schema agreement. */
export async function applyPlan(
  executor: Executor,
  plan: MigrationPlan,
  options: { readonly allowDestructive?: boolean },
): Promise<ApplyResult> {
  if (plan.store !== STORE) {
    throw wrongStorePlan(plan.store, STORE);
  }
  const steps = plan.steps.map(checkedStep);
  refuseConflicts(steps);
  const destructive = steps.filter(isDestructive);
  if (destructive.length > 0 && !options.allowDestructive) {
    throw new LifespanError(
      ErrorCodes.PLAN_DESTRUCTIVE_NOT_ALLOWED,
      `the plan has ${destructive.length} destructive step(s): ${destructive.map((s) => s.summary).join('; ')}`,
      { store: STORE, hint: 'review them, then apply(plan, { allowDestructive: true })' },
    );
  }
  const applied: PlanStep[] = [];
  for (const step of steps) {
    await runStep(executor, step);
    applied.push(step);
  }
  return { applied };
}

export async function runStep(executor: Executor, step: CassandraPlanStep): Promise<void> {
  const place = { entity: step.entity ?? undefined, store: STORE };
  for (const statement of step.payload.statements) await executor.ddl(statement, place);
}

/**
 * Whether running the step can lose data, judged from what it runs — its payload — and not from
 * its `class`, which is plain data a caller may have relabelled.
 */
export function isDestructive(step: CassandraPlanStep): boolean {
  return (
    step.class === 'destructive' ||
    DESTRUCTIVE_OPS.has(step.payload.op) ||
    step.payload.statements.some((statement) => DROPS_DATA.test(withoutQuotedNames(statement)))
  );
}

const DESTRUCTIVE_OPS: ReadonlySet<CassandraStepPayload['op']> = new Set(['recreate-table']);

/** Statements that remove stored data or schema holding it. */
const DROPS_DATA = /\b(DROP|TRUNCATE|DELETE)\b/i;

/** "drop" may be a (double-quoted) column name; only keywords count. */
function withoutQuotedNames(statement: string): string {
  return statement.replace(/"(?:[^"]|"")*"/g, '""');
}

/** Conflicts are never run: nothing of the plan is applied while one is in it. */
export function refuseConflicts(steps: readonly CassandraPlanStep[]): void {
  const conflicts = steps.filter((s) => s.class === 'conflict' || s.payload.op === 'conflict');
  if (conflicts.length === 0) return;
  throw new LifespanError(
    ErrorCodes.PLAN_CONFLICT,
    `Cassandra cannot make ${conflicts.length} change(s) in place: ${conflicts.map((s) => s.summary).join('; ')}`,
    {
      store: STORE,
      entity: conflicts[0]?.entity ?? undefined,
      hint: 'nothing was applied; change the model back, migrate the data to a new table yourself, or plan({ allowDestructive: true }) to drop and recreate',
    },
  );
}

const OPS: ReadonlySet<CassandraStepPayload['op']> = new Set([
  'create-table',
  'add-column',
  'set-default-ttl',
  'recreate-table',
  'conflict',
]);

/** A plan is plain data a caller may have built or edited: accept only payloads this provider makes. */
function checkedStep(step: PlanStep): CassandraPlanStep {
  const payload = step.payload as Partial<CassandraStepPayload> | null | undefined;
  const valid =
    typeof payload === 'object' &&
    payload !== null &&
    payload.op !== undefined &&
    OPS.has(payload.op) &&
    Array.isArray(payload.statements) &&
    payload.statements.every((s: unknown) => typeof s === 'string');
  if (!valid) {
    throw badPlanStep(STORE, `step "${step.summary}" was not made by the cassandra provider`, step.entity);
  }
  return step as CassandraPlanStep;
}
