import type { PlanStep } from '../../core/plan';
import type { Doc } from './commands';

// What plan.ts decides and steps.ts runs, apart from both so neither imports the other for it.

/**
 * Documents a step makes eligible for deletion at once: those whose `field` is at or before
 * now − `atOrBefore` seconds and (for a change of an existing TTL) after now − `after` seconds.
 */
export interface CountSpec {
  readonly field: string;
  readonly atOrBefore: number;
  readonly after: number | null;
}

/** What apply() runs for a step: the command document, built and guarded when the plan was made. */
export type MongoStepPayload =
  | { readonly op: 'command'; readonly command: Doc; readonly count: CountSpec | null }
  | { readonly op: 'conflict'; readonly reason: string };

export type MongoPlanStep = PlanStep<MongoStepPayload>;
