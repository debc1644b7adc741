import type { LifespanError } from '../errors';
import type { PlanStep } from './plan';
import type { CheckedStep, StepRules } from './plan-gate';

/** What plan() asks the store's inspection for. */
export interface PlanDemand {
  /** Plan destructive alternatives (drop and recreate) instead of conflicts. */
  readonly allowDestructive: boolean;
  /** Count the stored records each step reaches (plan({ counts: true }), CLI --counts). */
  readonly counts: boolean;
}

/** Who runs the checked steps, and with which consent. */
export interface RunConsent {
  readonly by: 'apply' | 'ensureCollections';
  readonly allowRetroactive: boolean;
  readonly allowUnexpiry: boolean;
}

/**
 * Everything one store supplies to the plan flow (plan-flow.ts). `Held`: what one apply() or
 * ensureCollections() holds while it runs (a schema lock, a database handle); `Run`: what the
 * step table's appliers run with, made from it.
 */
export interface PlanFlowRules<Payload, D extends keyof Payload & string, Run, Scope, Held> {
  /** The step table and the gate's rules (plan-gate.ts). */
  readonly steps: StepRules<Payload, D, Run, Scope>;
  /** Where plans are made, with secrets masked (MigrationPlan.target). */
  readonly target: string;
  /** What a payload is checked against when parsed (e.g. the database a plan was made for). */
  readonly scope: Scope;
  /** Holds what one apply() or ensureCollections() runs in around `work`, and releases it. */
  hold<T>(work: (held: Held) => Promise<T>): Promise<T>;
  /**
   * Inspects the store: the steps from what is live to the model, labelled (and counted when
   * asked). `held`: inside hold() (ensureCollections() plans and applies under one hold).
   */
  desired(demand: PlanDemand, held?: Held): Promise<readonly PlanStep<Payload>[]>;
  /**
   * The appliers' run context for steps the gate passed; may judge them against the live store
   * first and refuse (nothing has run then). Absent: the held value is the run context.
   */
  runContext?(steps: readonly CheckedStep<Payload>[], consent: RunConsent, held: Held): Promise<Run>;
  /** After a run that did not fail (e.g. to re-read settings the steps changed). */
  afterRun?(): Promise<void>;
  readonly ensure: EnsureRules<Payload, Held>;
}

/** What ensureCollections() needs of a store beyond its step table. */
export interface EnsureRules<Payload, Held> {
  /**
   * Whether the collection a step changes holds records, asked only for a step the step table
   * says can make stored records expire sooner (StepHandler.expiresStored). Absent: every such
   * collection counts as holding records (fail closed).
   */
  holdsRecords?(step: CheckedStep<Payload>, held: Held): Promise<boolean>;
  /** The ENSURE_NEEDS_REVIEW refusal of such steps over stored records, in the store's words. */
  needsReview?(steps: readonly CheckedStep<Payload>[]): LifespanError;
  /** Throws ENSURE_NEEDS_REVIEW when a step would make due-but-stored records readable again. */
  refuseUnexpiry?(steps: readonly CheckedStep<Payload>[], held: Held): Promise<void>;
  /** The steps ensureCollections() runs of those the gate passed (default: all). */
  pick?(steps: readonly CheckedStep<Payload>[]): readonly CheckedStep<Payload>[];
  /** Whether a step's failure means another process changed the schema since it was inspected. */
  lostRace(error: unknown, step: CheckedStep<Payload>): boolean;
  /**
   * After a lost race: 'stop' plans again at once; 'finish' runs the other steps first (each
   * stands alone, e.g. an ADD of one column), then plans again.
   */
  readonly afterLostRace: 'stop' | 'finish';
}

/** The appliers' run context: the store's runContext(), or what is held when the store has none. */
export function runContextOf<Payload, D extends keyof Payload & string, Run, Scope, Held>(
  rules: PlanFlowRules<Payload, D, Run, Scope, Held>,
  steps: readonly CheckedStep<Payload>[],
  consent: RunConsent,
  held: Held,
): Promise<Run> {
  // Without a runContext() a store runs its steps with what it holds (its Held is its Run).
  return rules.runContext ? rules.runContext(steps, consent, held) : Promise.resolve(held as unknown as Run);
}
