import { deepFreeze, frozenPlainCopy } from './frozen-copy';
import type { ApplyResult, MigrationPlan, PlanStep } from './plan';
import { flagOptions } from '../runtime/arguments';
import {
  labelledRetroactive,
  labelledUnexpiry,
  refuseUnconsentedRetroactive,
  refuseUnconsentedUnexpiry,
  type ExpiresSooner,
} from './plan-consent';
import { badPlanStep, destructiveNotAllowed, notAPlan, planConflict, wrongStorePlan } from './plan-refusals';

/**
 * The one plan gate: every store's apply() and the CLI's `lifespan apply` judge a plan here, before
 * any step runs. A plan is plain data a caller may have edited, so each step is judged by its
 * payload, parsed by the store's step table; the public labels (`class`, `blocking`) can only add
 * to a refusal, never lift one.
 */

/** The consent flags of apply() (ApplyOptions; the CLI's --allow-destructive / --allow-retroactive). */
export interface PlanConsent {
  readonly allowDestructive?: boolean;
  readonly allowRetroactive?: boolean;
  /** A step that makes due-but-stored records readable again (CLI: --allow-unexpiry). */
  readonly allowUnexpiry?: boolean;
}

/** Why a payload of a known kind is refused (it was edited, or made by something else). */
export interface StepRefusal {
  readonly refused: string;
}

export function refuse(why: string): StepRefusal {
  return { refused: why };
}

/**
 * What a store does with one step kind. The table of a store maps every kind of its payload union
 * to one of these, so a kind without a parser, an applier, a renderer or an explain line does not
 * compile.
 */
export interface StepHandler<P, Run, Scope> {
  /** Checks a payload of this kind (plain, editable data): the typed payload, or why it is refused. */
  parse(payload: Readonly<Record<string, unknown>>, scope: Scope): P | StepRefusal;
  /** True when the step stops the whole plan: a change the store cannot make in place. */
  blocks(payload: P): boolean;
  /** True when running it can lose data (it needs allowDestructive), judged by what it runs. */
  destroys(payload: P): boolean;
  /**
   * True when running it can make records already stored expire sooner (it needs
   * allowRetroactive), judged by what it runs: the labels (`effect`, `ttl`) can only add to it.
   */
  expiresStored(payload: P): boolean;
  /**
   * True when running it can make records that are due but still stored readable again, or keep
   * them from their deletion (it needs allowUnexpiry), judged by what it runs: the labels
   * (`effect.unexpires`) can only add to it. False where the store never holds a due record that
   * a reader could see again (explain() says why).
   */
  unexpiresStored(payload: P): boolean;
  /** Runs the step; false when its outcome already held (then it is not listed as applied). */
  apply(payload: P, step: PlanStep<P>, run: Run): Promise<boolean>;
  /** The native command text the step runs (the plan's `command`). */
  render(payload: P): string;
  /** One line: what a step of this kind does to the store (listed when a step is refused). */
  readonly explain: string;
}

/**
 * A store's steps, keyed by the payload's discriminant (`kind`, `op`, …). Each handler sees the
 * payload narrowed to its kind: the union's member for a union, the payload with that kind otherwise.
 */
export type StepTable<Payload, D extends keyof Payload, Run, Scope = undefined> = {
  readonly [K in Payload[D] & string]: StepHandler<PayloadOfKind<Payload, D, K>, Run, Scope>;
};

export type PayloadOfKind<Payload, D extends keyof Payload, K> = Payload & { readonly [F in D]: K };

declare const checkedByTheGate: unique symbol;

/**
 * A step the gate has passed: a deep-frozen copy of the caller's step. runSteps() runs only these,
 * so a step that skipped the gate does not compile.
 */
export type CheckedStep<P> = PlanStep<P> & { readonly [checkedByTheGate]: true };

/** Everything the gate knows of one store. */
export interface StepRules<Payload, D extends keyof Payload & string, Run, Scope = undefined> {
  /** The store name plans carry (MigrationPlan.store). */
  readonly store: string;
  /** The payload field that names its kind: `op` on every store (issue 28: one step tag). */
  readonly discriminant: D;
  /**
   * The field plans saved by an earlier version named the kind by (two stores used `kind`):
   * a payload without the discriminant is read by it, so a saved plan still applies.
   */
  readonly legacyDiscriminant?: string;
  readonly table: StepTable<Payload, D, Run, Scope>;
  /** What to do about a blocking conflict on this store. */
  readonly conflictHint: string;
  /** How a step's `ttl` label (from → to) reads; shorterTtl unless the store's TTL values differ. */
  readonly expiresSooner: ExpiresSooner;
}

/**
 * Checks a whole plan for `rules.store` and returns its steps with typed payloads, or throws one
 * refusal before anything runs: consent that is not an options object (BAD_ARGUMENT), not a plan (BAD_ARGUMENT), another store's plan (PLAN_WRONG_STORE),
 * a step whose payload this store did not make (PLAN_BAD_STEP), a blocking conflict (PLAN_CONFLICT),
 * a destructive step without allowDestructive (PLAN_DESTRUCTIVE_NOT_ALLOWED), a step that makes
 * stored records expire at once without allowRetroactive (PLAN_RETROACTIVE_NOT_ALLOWED), a step that
 * makes due-but-stored records readable again without allowUnexpiry (PLAN_UNEXPIRY_NOT_ALLOWED).
 */
export function checkPlan<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  plan: unknown,
  options: unknown,
  scope: Scope,
): CheckedStep<Payload>[] {
  const consent = flagOptions<PlanConsent>(
    options,
    'apply()',
    { store: rules.store },
    ['allowDestructive', 'allowRetroactive', 'allowUnexpiry'],
    '{ allowDestructive: true }',
  );
  if (typeof plan !== 'object' || plan === null) throw notAPlan(rules.store);
  const given = plan as Partial<MigrationPlan>;
  if (given.store !== rules.store) throw wrongStorePlan(given.store, rules.store);
  if (!Array.isArray(given.steps)) throw notAPlan(rules.store);
  const steps = given.steps.map((step: unknown) => parseStep(rules, step, scope));
  const conflicts = steps.filter(
    (s) => handlerOf(rules, s.payload).blocks(s.payload) || (s.class === 'conflict' && s.blocking !== false),
  );
  if (conflicts.length > 0) throw planConflict(rules.store, conflicts, rules.conflictHint);
  const destructive = steps.filter((s) => isDestructiveStep(rules, s));
  if (destructive.length > 0 && consent.allowDestructive !== true) {
    throw destructiveNotAllowed(rules.store, destructive);
  }
  const labelled = new Set(labelledRetroactive(steps, rules.expiresSooner));
  const retroactive = steps.filter((s) => labelled.has(s) || handlerOf(rules, s.payload).expiresStored(s.payload));
  refuseUnconsentedRetroactive(rules.store, retroactive, consent.allowRetroactive);
  const unexpiring = new Set(labelledUnexpiry(steps));
  const unexpiry = steps.filter((s) => unexpiring.has(s) || handlerOf(rules, s.payload).unexpiresStored(s.payload));
  refuseUnconsentedUnexpiry(rules.store, unexpiry, consent.allowUnexpiry);
  return steps;
}

/**
 * Whether running a checked step can lose data: by what its payload runs, or by its label (a
 * relabelled class cannot lift the rule, only add to it).
 */
export function isDestructiveStep<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  step: PlanStep<Payload>,
): boolean {
  return step.class === 'destructive' || handlerOf(rules, step.payload).destroys(step.payload);
}

/**
 * Runs checked steps in order; the result lists those that changed something. Each is added to
 * `applied` as it runs, so a caller that catches a later step's failure still knows what ran.
 */
export async function runSteps<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  steps: readonly CheckedStep<Payload>[],
  run: Run,
  applied: PlanStep[] = [],
): Promise<ApplyResult> {
  for (const step of steps) {
    if (await runStep(rules, step, run)) applied.push(step);
  }
  return { applied };
}

/** Runs one checked step by its kind's applier: false when its outcome already held. */
export function runStep<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  step: CheckedStep<Payload>,
  run: Run,
): Promise<boolean> {
  return handlerOf(rules, step.payload).apply(step.payload, step, run);
}

/** Whether running a step can make records already stored expire sooner, by what its payload runs. */
export function expiresStoredBy<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  step: PlanStep<Payload>,
): boolean {
  return handlerOf(rules, step.payload).expiresStored(step.payload);
}

/** Whether running the step can make due-but-stored records readable again, by its kind's handler. */
export function unexpiresStoredBy<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  step: PlanStep<Payload>,
): boolean {
  return handlerOf(rules, step.payload).unexpiresStored(step.payload);
}

/** The native command text of a payload, by its kind's renderer. */
export function renderStep<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  payload: Payload,
): string {
  return handlerOf(rules, payload).render(payload);
}

type AnyHandler<Run, Scope> = StepHandler<unknown, Run, Scope>;

function handlerOf<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  payload: Payload,
): AnyHandler<Run, Scope> {
  const table = rules.table as unknown as Record<string, AnyHandler<Run, Scope>>;
  return table[payload[rules.discriminant] as string] as AnyHandler<Run, Scope>;
}

function parseStep<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  step: unknown,
  scope: Scope,
): CheckedStep<Payload> {
  const given = frozenCopy(rules.store, step);
  const name = `step '${String(given.summary)}'`;
  const payload = withCurrentTag(rules, given.payload);
  if (typeof payload !== 'object' || payload === null) {
    throw badPlanStep(rules.store, `${name} carries no ${rules.store} payload`, given.entity);
  }
  const kind = (payload as Record<string, unknown>)[rules.discriminant];
  const table = rules.table as unknown as Record<string, AnyHandler<Run, Scope>>;
  const handler = typeof kind === 'string' && Object.hasOwn(table, kind) ? table[kind] : undefined;
  if (!handler) {
    const known = Object.entries(table).map(([k, h]) => `${k} (${h.explain})`);
    throw badPlanStep(
      rules.store,
      `${name} has an operation lifespan does not run on ${rules.store} (${JSON.stringify(kind) ?? 'none'}); ` +
        `its plans run: ${known.join(', ')}`,
      given.entity,
    );
  }
  const parsed = handler.parse(payload as Record<string, unknown>, scope);
  if (isRefusal(parsed)) throw badPlanStep(rules.store, `${name} ${parsed.refused}`, given.entity);
  const checked = parsed === given.payload ? given : { ...given, payload: parsed };
  return deepFreeze(checked) as CheckedStep<Payload>;
}

/** A payload that names its kind by the store's legacy field, read with the current one. */
function withCurrentTag<Payload, D extends keyof Payload & string, Run, Scope>(
  rules: StepRules<Payload, D, Run, Scope>,
  payload: unknown,
): unknown {
  const legacy = rules.legacyDiscriminant;
  if (legacy === undefined || typeof payload !== 'object' || payload === null) return payload;
  const fields = payload as Record<string, unknown>;
  if (Object.hasOwn(fields, rules.discriminant) || typeof fields[legacy] !== 'string') return payload;
  const { [legacy]: kind, ...rest } = fields;
  return { ...rest, [rules.discriminant]: kind };
}

/**
 * The gate judges, and the store runs, a deep-frozen copy of each step: a caller editing its plan
 * while apply() awaits cannot change what was judged.
 */
function frozenCopy(store: string, step: unknown): Partial<PlanStep> {
  if (typeof step !== 'object' || step === null) return {};
  return frozenPlainCopy(step as Partial<PlanStep>, () =>
    badPlanStep(store, 'a step holds something other than plain data (plans are plain data from plan())'),
  );
}

function isRefusal(value: unknown): value is StepRefusal {
  return typeof value === 'object' && value !== null && typeof (value as StepRefusal).refused === 'string';
}
