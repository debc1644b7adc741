import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { badPlanStep } from '../../plan-errors';
import type { ApplyResult, PlanStep } from '../../explain/plan';
import { isAlreadyThere } from './drivers/driver-errors';
import { RELATIONAL_STORE } from './options';
import { CREATING_OPS, DESTRUCTIVE_OPS, STEP_OPS, type RelationalStep, type StepPayload } from './plan';
import type { SchemaRunner } from './drivers/schema-runner';

const KNOWN_OPS: ReadonlySet<string> = new Set(STEP_OPS);

/** Statements that remove tables, columns, indexes or rows, whatever step carries them. */
const DESTRUCTIVE_SQL = [/^\s*(DROP|DELETE|TRUNCATE)\b/i, /^\s*ALTER\b[\s\S]*\bDROP\b/i];

/**
 * Destructive by what the step runs, never by its (mutable) class alone: a drop operation, or any
 * statement that drops or deletes, counts even when the step was relabelled.
 */
export function isDestructive(step: RelationalStep): boolean {
  return (
    step.class === 'destructive' ||
    DESTRUCTIVE_OPS.has(step.payload.op) ||
    step.payload.sql.some((sql) => DESTRUCTIVE_SQL.some((re) => re.test(sql)))
  );
}

/** A conflict lifespan cannot apply; decided from the payload, not the public copy of the flag. */
export function isBlocking(step: RelationalStep): boolean {
  return step.payload.blocking;
}

/** The plan's steps as this provider made them; a foreign or altered payload is refused. */
export function relationalSteps(steps: readonly PlanStep[]): RelationalStep[] {
  return steps.map((step) => {
    const payload = (step as { payload?: unknown }).payload as Partial<StepPayload> | null | undefined;
    const ok =
      typeof payload === 'object' &&
      payload !== null &&
      typeof payload.op === 'string' &&
      KNOWN_OPS.has(payload.op) &&
      Array.isArray(payload.sql) &&
      payload.sql.every((sql) => typeof sql === 'string') &&
      typeof payload.blocking === 'boolean';
    if (!ok) {
      throw badPlanStep(
        RELATIONAL_STORE,
        `step '${step.summary}' was not made by the relational provider`,
        step.entity,
      );
    }
    return step as RelationalStep;
  });
}

/** Refuses a plan that cannot be applied as a whole, before anything runs. */
export function checkApplicable(steps: readonly RelationalStep[], allowDestructive: boolean): void {
  const blocking = steps.filter(isBlocking);
  if (blocking.length > 0) throw planConflict(blocking, 'change the tables yourself (or the model), then plan again');
  const destructive = steps.filter(isDestructive);
  if (destructive.length > 0 && !allowDestructive) {
    throw new LifespanError(
      ErrorCodes.PLAN_DESTRUCTIVE_NOT_ALLOWED,
      `the plan has ${destructive.length} destructive step(s):\n${list(destructive)}`,
      { store: RELATIONAL_STORE, hint: 'review them, then pass { allowDestructive: true } to apply them' },
    );
  }
}

export function planConflict(blocking: readonly RelationalStep[], hint: string): LifespanError {
  return new LifespanError(
    ErrorCodes.PLAN_CONFLICT,
    `the live tables differ from the model in ${blocking.length} way(s) lifespan will not change:\n${list(blocking)}`,
    { store: RELATIONAL_STORE, hint },
  );
}

function list(steps: readonly RelationalStep[]): string {
  return steps.map((s) => `  - ${s.summary}`).join('\n');
}

/**
 * Runs the DDL of each step in order. Creation is idempotent: "already exists" (a concurrent
 * process, or a repeated apply of the same plan) counts as done.
 */
export async function applySteps(runner: SchemaRunner, steps: readonly RelationalStep[]): Promise<ApplyResult> {
  const applied: RelationalStep[] = [];
  for (const step of steps) {
    const payload = step.payload;
    if (payload.sql.length === 0) continue;
    for (const sql of payload.sql) {
      try {
        await runner.exec(sql);
      } catch (error) {
        if (!(CREATING_OPS.has(payload.op) && isAlreadyThere(error))) throw error;
      }
    }
    applied.push(step);
  }
  return { applied };
}
