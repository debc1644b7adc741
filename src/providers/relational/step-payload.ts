import type { PlanStep } from '../../core/plan';

/**
 * The operation of a step, as apply() judges it (the public `class` and `blocking` fields are
 * copies for people and the CLI; apply() never trusts them alone).
 */
export const STEP_OPS = [
  'create-table',
  'add-column',
  'add-expiry-column',
  'create-expiry-index',
  'record-ttl',
  'set-ttl',
  'drop-expiry-column',
  'keep-expiry-column',
  'primary-key',
  'column-type',
  'column-collation',
  'column-nullability',
] as const;

export type StepOp = (typeof STEP_OPS)[number];

/**
 * What apply() runs for a step: its operation and DDL statements. `blocking`: a conflict that
 * stops apply() and ensureCollections() (false: a difference lifespan leaves as is on purpose).
 */
export interface StepPayload {
  readonly op: StepOp;
  readonly sql: readonly string[];
  readonly blocking: boolean;
}

export type RelationalStep = PlanStep<StepPayload>;
