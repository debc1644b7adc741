/** Whether changing the declared TTL re-judges stored data or only affects later writes. */
export type ChangeEffectKind = 'retroactive' | 'new-writes-only' | 'none';

/**
 * additive: creates what is missing, touches no stored data; in-place: changes a setting of an
 * existing collection; destructive: drops or rewrites something (only with allowDestructive);
 * conflict: the store cannot make the change in place and lifespan will not drop anything.
 */
export type StepClass = 'additive' | 'in-place' | 'destructive' | 'conflict';

export interface StepEffect {
  readonly kind: ChangeEffectKind;
  /** One sentence on what the step does to data already stored. */
  readonly text: string;
  /** Records that expire at once because of the step (plan({ counts: true })), when counted. */
  readonly affected?: number | null;
  /** False when the claim is from documentation and not yet confirmed by a live test. */
  readonly verified: boolean;
  /**
   * True when the application's code stamps the expiry on each write (an emulated expires_at, a
   * per-document expiry field): the change reaches stored data when the new code is deployed.
   */
  readonly stampedAtWrite?: boolean;
  /** True when each record's own date or stored expiry decides when it expires, not one store-wide clock. */
  readonly perDocument?: boolean;

  // Issue 25: un-expiry and the forecast around a step.
  /**
   * True when the step can make records that are due but still stored readable (or kept) again:
   * it needs allowUnexpiry (CLI: --allow-unexpiry), as a retroactive step needs allowRetroactive.
   */
  readonly unexpires?: boolean;
  /** Due-but-stored records the step makes readable again (plan({ counts: true })), when counted. */
  readonly unexpired?: number | null;
  /** The expiry forecast of the stored records before and after the step (plan({ counts: true })). */
  readonly forecast?: { readonly before: ForecastCounts; readonly after: ForecastCounts };
}

/** The counts of an expiry forecast, without how they were read. */
export interface ForecastCounts {
  readonly due: number;
  readonly buckets: readonly { readonly label: string; readonly count: number }[];
  readonly never: number;
}

export interface PlanStep<P = unknown> {
  readonly entity: string | null;
  readonly collection: string;
  /** Short machine name of the change, e.g. 'create-table', 'set-default-ttl'. */
  readonly action: string;
  readonly class: StepClass;
  /** One line in the store's own words. */
  readonly summary: string;
  /** The native command text the step runs (or would run). */
  readonly command: string;
  readonly ttl?: { readonly from: number | null; readonly to: number | null };
  readonly effect?: StepEffect;
  /**
   * Conflict steps only: false when the rest of the plan can be applied without resolving it
   * (e.g. a leftover column kept on purpose); a conflict blocks by default.
   */
  readonly blocking?: boolean;
  /** Provider-private plain data that apply() executes. */
  readonly payload: P;
}

export interface MigrationPlan {
  readonly store: string;
  /** Where the plan was made, with secrets masked. */
  readonly target: string;
  readonly steps: readonly PlanStep[];
}

export function isInSync(plan: MigrationPlan): boolean {
  return plan.steps.length === 0;
}

export interface ApplyResult {
  readonly applied: readonly PlanStep[];
}

/**
 * A plan the plan gate has judged (StoreSession.review): apply() runs exactly the steps judged,
 * without judging them again. A store may still refuse, before any step runs, on what it reads
 * live when it applies (e.g. the live indexes).
 */
export interface ReviewedPlan {
  readonly store: string;
  readonly steps: readonly PlanStep[];
  apply(): Promise<ApplyResult>;
}
