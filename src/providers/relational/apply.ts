import { LifespanError } from '../../errors';
import type { ApplyResult } from '../../explain/plan';
import { isAlreadyThere } from './driver-errors';
import { RELATIONAL_STORE } from './options';
import type { RelationalStep, StepPayload } from './plan';
import type { SchemaRunner } from './schema-runner';

/** Refuses a plan that cannot be applied as a whole, before anything runs. */
export function checkApplicable(steps: readonly RelationalStep[], allowDestructive: boolean): void {
  const blocking = steps.filter((s) => s.class === 'conflict' && s.payload.blocking);
  if (blocking.length > 0) {
    throw new LifespanError(
      'PLAN_HAS_CONFLICTS',
      `the plan has ${blocking.length} conflict(s) lifespan cannot apply:\n${blocking.map((s) => `  - ${s.summary}`).join('\n')}`,
      { store: RELATIONAL_STORE, hint: 'change the tables yourself (or the model), then plan again' },
    );
  }
  const destructive = steps.filter((s) => s.class === 'destructive');
  if (destructive.length > 0 && !allowDestructive) {
    throw new LifespanError(
      'PLAN_DESTRUCTIVE',
      `the plan has ${destructive.length} destructive step(s):\n${destructive.map((s) => `  - ${s.summary}`).join('\n')}`,
      { store: RELATIONAL_STORE, hint: 'pass { allowDestructive: true } to apply them' },
    );
  }
}

/**
 * Runs the DDL of each step in order. Creation is idempotent: "already exists" (a concurrent
 * process, or a repeated apply of the same plan) counts as done.
 */
export async function applySteps(runner: SchemaRunner, steps: readonly RelationalStep[]): Promise<ApplyResult> {
  const applied: RelationalStep[] = [];
  for (const step of steps) {
    const payload = step.payload as StepPayload;
    if (payload.sql.length === 0) continue;
    for (const sql of payload.sql) {
      try {
        await runner.exec(sql);
      } catch (error) {
        if (!(step.class === 'additive' && isAlreadyThere(error))) throw error;
      }
    }
    applied.push(step);
  }
  return { applied };
}
