import { ErrorCodes } from '../error-codes';
import { LifespanError, TtlError } from '../errors';
import type { ForecastCounts, PlanStep } from './plan';
import { formatDuration, parseDuration, showValue, type DurationInput } from '../model/duration';

/**
 * The expiry forecast (issue 25): per entity and store, how many stored records are due but still
 * stored, expire within each bucket, and never expire. What is the same for every store lives here:
 * the options and their checks, the buckets, and the tally a walk adds records to. A store only
 * says how it reads remaining lives: an aggregate that returns a bucket index per group, or a walk.
 */

/** `db.expiryForecast(options)`. */
export interface ExpiryForecastOptions {
  /**
   * Upper bounds of the buckets, ascending durations (default 1h, 1d, 7d, 30d); records that
   * expire after the last one are counted as `later`.
   */
  readonly buckets?: readonly DurationInput[];
  /**
   * The most records a walk reads per entity (on stores that cannot aggregate over expiry);
   * default 10,000, 1..10,000,000. A walk that stops at the cap is reported as sampled.
   */
  readonly cap?: number;
}

export const DEFAULT_FORECAST_BUCKETS: readonly number[] = [3600, 86400, 7 * 86400, 30 * 86400];
export const DEFAULT_FORECAST_CAP = 10_000;
const MAX_FORECAST_CAP = 10_000_000;
const MAX_BUCKETS = 20;
const OPTION_NAMES = ['buckets', 'cap'] as const;

/** Checked options, as every store reads them. */
export interface ForecastSpec {
  /** Bucket upper bounds in seconds, strictly ascending. */
  readonly bucketSeconds: readonly number[];
  readonly cap: number;
}

/** How a store counted. */
export type ForecastMethod = 'aggregate' | 'walk' | 'none';

export interface ForecastBucket {
  /** e.g. 'within 1h', '1h–1d', 'later'. */
  readonly label: string;
  /** Upper bound in seconds (the bucket holds lives in (previous bound, this one]); null for `later`. */
  readonly withinSeconds: number | null;
  readonly count: number;
}

/** What it cost to count (every result says so). */
export interface ForecastCost {
  /** Requests sent to the store. */
  readonly roundTrips: number;
  /** Request units, where the store reports them. */
  readonly requestUnits?: number;
  /** In the store's words, e.g. 'one GROUP BY query over expires_at (a full scan of sessions)'. */
  readonly text: string;
}

/** One entity's forecast on one store. */
export interface EntityForecast {
  readonly entity: string;
  readonly collection: string;
  readonly store: string;
  readonly method: ForecastMethod;
  /** True when every stored record was counted; false when a walk stopped at the cap (a sample). */
  readonly exact: boolean;
  /** Records read (for an aggregate: the records it counted). */
  readonly read: number;
  /** Due (their expiry has passed) but still stored: the store or its purge has not removed them yet. */
  readonly due: number;
  readonly buckets: readonly ForecastBucket[];
  readonly never: number;
  readonly cost: ForecastCost;
  /** Why a store counts nothing (e.g. the relational store with TTL ignored), or a caveat. */
  readonly note?: string;
}

/** Checks forecast options: an unknown key, a bucket that is not a duration or out of order, a bad cap. */
export function forecastSpec(given: unknown, store: string): ForecastSpec {
  if (given === undefined) return { bucketSeconds: DEFAULT_FORECAST_BUCKETS, cap: DEFAULT_FORECAST_CAP };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw badOption(store, `expiryForecast() got ${showValue(given)} as its options`, "{ buckets: ['1h', '1d'] }");
  }
  const options = given as Record<string, unknown>;
  for (const name of Object.keys(options)) {
    if (!(OPTION_NAMES as readonly string[]).includes(name)) {
      throw badOption(store, `expiryForecast() has no option '${name}'`, `its options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  return { bucketSeconds: bucketsOf(options['buckets'], store), cap: capOf(options['cap'], store) };
}

function bucketsOf(value: unknown, store: string): readonly number[] {
  if (value === undefined) return DEFAULT_FORECAST_BUCKETS;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BUCKETS) {
    throw badOption(
      store,
      `expiryForecast() buckets must be a list of 1 to ${MAX_BUCKETS} durations, not ${showValue(value)}`,
      "e.g. { buckets: ['1h', '1d', '7d'] }",
    );
  }
  const seconds = value.map((bucket: unknown, i) => {
    try {
      return parseDuration(bucket);
    } catch (error) {
      if (!(error instanceof TtlError)) throw error;
      throw badOption(store, `expiryForecast() bucket ${i + 1} (${showValue(bucket)}): ${error.detail}`, error.hint);
    }
  });
  for (let i = 1; i < seconds.length; i++) {
    if ((seconds[i] as number) <= (seconds[i - 1] as number)) {
      throw badOption(
        store,
        `expiryForecast() buckets must ascend: ${showValue(value[i])} is not longer than ${showValue(value[i - 1])}`,
        'list the bucket bounds from the shortest to the longest',
      );
    }
  }
  return seconds;
}

function capOf(value: unknown, store: string): number {
  if (value === undefined) return DEFAULT_FORECAST_CAP;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_FORECAST_CAP) return value;
  throw badOption(
    store,
    `expiryForecast() cap must be a whole number of records from 1 to ${MAX_FORECAST_CAP.toLocaleString('en-US')}, not ${showValue(value)}`,
    'e.g. { cap: 10000 }',
  );
}

function badOption(store: string, message: string, hint: string | undefined): LifespanError {
  return new LifespanError(ErrorCodes.BAD_ARGUMENT, message, { store, ...(hint ? { hint } : {}) });
}

/** The bucket labels of a spec, the `later` one last. */
export function bucketLabels(spec: ForecastSpec): string[] {
  const bounds = spec.bucketSeconds;
  return [
    ...bounds.map((b, i) =>
      i === 0 ? `within ${formatDuration(b)}` : `${formatDuration(bounds[i - 1] as number)}–${formatDuration(b)}`,
    ),
    'later',
  ];
}

/**
 * Bucket indexes as aggregates return them: NEVER for no expiry, DUE for an expiry that has passed,
 * 1..n for the buckets, n + 1 for later. A store's aggregate computes this index per record (CASE,
 * $switch, …) from its remaining life in milliseconds, compared with `boundsMs(spec)`.
 */
export const NEVER_INDEX = -1;
export const DUE_INDEX = 0;

export function boundsMs(spec: ForecastSpec): number[] {
  return spec.bucketSeconds.map((s) => s * 1000);
}

/** The bucket index of one remaining life in milliseconds (null: never expires), as an aggregate computes it. */
export function bucketIndex(spec: ForecastSpec, remainingMs: number | null): number {
  if (remainingMs === null) return NEVER_INDEX;
  if (remainingMs <= 0) return DUE_INDEX;
  const bounds = boundsMs(spec);
  const i = bounds.findIndex((b) => remainingMs <= b);
  return i === -1 ? bounds.length + 1 : i + 1;
}

/** Counts per bucket index, added by a walk one record at a time or by an aggregate per group. */
export class ForecastTally {
  private readonly counts: number[];
  private never = 0;
  private due = 0;
  private seen = 0;

  constructor(private readonly spec: ForecastSpec) {
    this.counts = new Array<number>(spec.bucketSeconds.length + 1).fill(0);
  }

  get read(): number {
    return this.seen;
  }

  /** One record's remaining life in milliseconds (≤ 0: due), or null when it never expires. */
  addRemaining(remainingMs: number | null): void {
    this.addIndexed(bucketIndex(this.spec, remainingMs), 1);
  }

  /** `count` records of one bucket index (see NEVER_INDEX, DUE_INDEX). */
  addIndexed(index: number, count: number): void {
    this.seen += count;
    if (index === NEVER_INDEX) this.never += count;
    else if (index === DUE_INDEX) this.due += count;
    else {
      const slot = Math.min(Math.max(index, 1), this.counts.length) - 1;
      this.counts[slot] = (this.counts[slot] ?? 0) + count;
    }
  }

  result(
    at: { entity: string; collection: string; store: string },
    how: { method: ForecastMethod; exact: boolean; cost: ForecastCost; note?: string },
  ): EntityForecast {
    const labels = bucketLabels(this.spec);
    return {
      ...at,
      method: how.method,
      exact: how.exact,
      read: this.seen,
      due: this.due,
      buckets: this.counts.map((count, i) => ({
        label: labels[i] as string,
        withinSeconds: this.spec.bucketSeconds[i] ?? null,
        count,
      })),
      never: this.never,
      cost: how.cost,
      ...(how.note ? { note: how.note } : {}),
    };
  }
}

/** An entity on a store where nothing expires (relational with TTL ignored, an entity without a TTL). */
export function noExpiryForecast(
  spec: ForecastSpec,
  at: { entity: string; collection: string; store: string },
  note: string,
): EntityForecast {
  return new ForecastTally(spec).result(at, {
    method: 'none',
    exact: true,
    cost: { roundTrips: 0, text: 'nothing read' },
    note,
  });
}

/** The note of an entity that declares no TTL, on every store alike. */
export function untimedNote(entity: string): string {
  return `${entity} declares no TTL: its records never expire`;
}

/** The counts of a forecast, as a plan step carries them. */
export function forecastCounts(f: EntityForecast): ForecastCounts {
  return { due: f.due, buckets: f.buckets.map((b) => ({ label: b.label, count: b.count })), never: f.never };
}

/**
 * A TTL step with the forecast of its stored records before and after it (plan({ counts: true })):
 * what the plan render shows as "at apply: N expire at once; within 1h: X, was Y".
 */
export function withForecast<S extends PlanStep>(step: S, before: EntityForecast, after: EntityForecast): S {
  if (!step.effect) return step;
  return {
    ...step,
    effect: { ...step.effect, forecast: { before: forecastCounts(before), after: forecastCounts(after) } },
  };
}
