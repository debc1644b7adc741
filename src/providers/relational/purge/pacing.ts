import { ErrorCodes } from '../../../error-codes';
import { StoreError } from '../../../errors';
import { EVERY_SQL_FAMILY } from '../families/by-dialect';
import type { DriverError } from '../families/family';
import { RELATIONAL_STORE } from '../options';

/**
 * Sizes purge batches by time: the next batch grows while batches finish well under the budget
 * and shrinks in proportion when one goes over it, so the locks a batch holds are held about
 * `budgetMs`, whatever a row costs on this table, engine and machine. Sizes are powers of two
 * (clamped to the cap), so a table needs only a handful of distinct statements.
 */
export class BatchSizer {
  private current: number;
  /**
   * The smallest size that went over the budget: growth stops below it (cost per row is not
   * linear), until CALM_BATCHES batches in a row kept to the budget (one slow batch — a cold cache,
   * a WAL checkpoint — must not pin the size for the rest of the purge).
   */
  private ceiling = Infinity;
  private calm = 0;

  constructor(
    private readonly budgetMs: number,
    initial: number,
    private readonly cap: number,
  ) {
    this.current = Math.min(initial, cap);
  }

  get size(): number {
    return this.current;
  }

  /**
   * The last size a batch that deleted rows kept to the budget with (or, after one over it, the size
   * that fits it): where the next purge of the table may start. Not the grown size: a block walk's
   * ranges past the due rows are fast and grow it, but say nothing of a range that deletes.
   */
  get proven(): number | undefined {
    return this.worked;
  }

  private worked: number | undefined;

  /** A batch of the current size took `ms`; `full`: it had as much work as its size allowed. */
  record(ms: number, batch: { readonly full: boolean; readonly rows: number }): void {
    const { full } = batch;
    const size = this.current;
    // A batch of as many rows as its size (not a block walk's range of heap blocks, whose cost per
    // block swings with how many of its rows are due).
    const rising = full && batch.rows === size ? this.rise(size, ms / size) : 1;
    if (full && ms <= this.budgetMs) this.latest.set(size, ms);
    if (ms > this.budgetMs) {
      // What units cost changed (or this batch waited): the times of other sizes are stale.
      this.latest.clear();
      this.ceiling = Math.min(this.ceiling, size);
      this.calm = 0;
      const fit = Math.floor((size * this.budgetMs) / ms);
      this.current = Math.max(1, floorPow2(fit));
      if (batch.rows > 0) this.worked = this.current;
      return;
    }
    if (batch.rows > 0) this.worked = size;
    if (++this.calm >= CALM_BATCHES) this.ceiling = Infinity;
    const half = this.budgetMs / 2;
    if (rising > RISING) {
      // The cost of a row rose steeply (the walk reached rows whose pages are scattered: a text
      // key's short values, an old region of the table): the next batch is sized for it rising as
      // much again, so the batch that meets the worst of it still ends near the budget.
      const expected = (ms / size) * Math.min(MAX_GROWTH, rising);
      this.current = Math.min(size, floorPow2(half / expected));
      this.latest.clear();
      return;
    }
    if (!full || ms >= half || size * 2 >= this.ceiling) return;
    // Grown while the grown batch would take at most half the budget, at most MAX_GROWTH times:
    // then a batch whose rows cost twice what the last ones did still keeps to the budget. Growing
    // whenever a batch took under half the budget let the grown one take all of it, and the next,
    // meeting dearer rows, twice it (114 ms against 50 in the bench's purge of 2,000,000 rows).
    // The grown batch costs this one's time plus what the added units cost (a commit, a round trip
    // are paid once a batch): measured between the latest batches of two sizes. Doubling alone
    // kept a small table's purge to many small batches, each paying its own commit.
    // Before a second size was measured, a unit is taken to cost this batch's time per unit.
    const added = this.addedCost(size) ?? ms / size;
    let growth = MAX_GROWTH;
    while (growth >= 2 && ms + added * size * (growth - 1) > half) growth /= 2;
    if (growth < 2) {
      // Grown in proportion, the batch would pass half the budget, but how much of its time is
      // fixed (a commit, round trips) is not known before a second size was measured: a batch half
      // as large (never too long) tells.
      if (this.latest.size < 2 && size > 1) this.current = floorPow2(size / 2);
      return;
    }
    const grown = size * growth;
    this.current = Math.min(this.cap, grown < this.ceiling ? grown : size * 2);
  }

  /**
   * What one more unit adds to a batch of `size`: the difference between the latest batches of
   * this size and of the nearest other size measured since what units cost last changed, per unit
   * of difference. Undefined before two sizes were measured, or when the difference is not
   * positive (noise): then a unit is taken to cost this batch's time per unit.
   */
  private addedCost(size: number): number | undefined {
    const here = this.latest.get(size);
    if (here === undefined) return undefined;
    let other = 0;
    for (const measured of this.latest.keys()) {
      if (measured !== size && (other === 0 || Math.abs(measured - size) < Math.abs(other - size))) other = measured;
    }
    const there = this.latest.get(other);
    if (there === undefined) return undefined;
    const added = (here - there) / (size - other);
    return added > 0 ? added : undefined;
  }

  /** The time of the latest full batch of each size within the budget, since costs last changed. */
  private readonly latest = new Map<number, number>();

  /**
   * How much the cost of a row rose over the median of the last RECENT full batches of this same
   * size that deleted as many rows (1 for the first): a rise spread over a few batches (×1.3, then
   * ×1.4) counts as a whole, one batch's noise (±30 %) does not. Only batches of one size are
   * compared: a batch's fixed cost (its commit) weighs more per row in a smaller one.
   */
  private rise(size: number, perUnit: number): number {
    if (size !== this.riseSize) {
      this.riseSize = size;
      this.recentPerUnit.length = 0;
    }
    const recent = this.recentPerUnit;
    const usual = recent.length === 0 ? perUnit : median(recent);
    recent.push(perUnit);
    if (recent.length > RECENT) recent.shift();
    return usual > 0 ? perUnit / usual : 1;
  }

  private riseSize = 0;
  private readonly recentPerUnit: number[] = [];
}

/** The full batches of one size a rise of the cost per row is measured over. */
const RECENT = 4;
/** A rise of the cost per row over the recent batches' median that the sizer plans for. */
const RISING = 1.5;

const CALM_BATCHES = 8;
/** The most a batch grows from one batch to the next. */
const MAX_GROWTH = 4;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function floorPow2(n: number): number {
  return n < 1 ? 1 : 2 ** Math.floor(Math.log2(n));
}

/** Retries after a deadlock or lock-wait timeout, and the pause before each. */
export const PURGE_RETRIES = 6;

export function backoffMs(attempt: number): number {
  const base = 5 * 2 ** attempt;
  return base + Math.random() * base;
}

/**
 * Whether an error, or one of the causes it wraps, means "another transaction held a lock", so
 * retrying the batch is safe. Each family recognises its driver's codes
 * (families/<family>/lock-conflicts.ts); a driver error is always one family's (the codes never
 * overlap), so every family is asked, as drivers/driver-errors.ts asks for key violations.
 */
export function isLockConflict(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const driverError = e as DriverError;
    if (EVERY_SQL_FAMILY.some((f) => f.isLockConflict(driverError))) return true;
  }
  return false;
}

/** A purge that stopped after its retries: what it did stays done, and the next run resumes. */
export class PurgeInterruptedError extends StoreError {
  constructor(
    readonly table: string,
    /** Rows this purge deleted (all tables) before it stopped; they stay deleted. */
    readonly deleted: number,
    readonly batches: number,
    cause: unknown,
  ) {
    super(
      ErrorCodes.PURGE_INTERRUPTED,
      `the purge of table ${table} stopped: another transaction kept a lock it needed through ${PURGE_RETRIES} ` +
        `retries (deadlock or lock wait timeout); ${deleted} expired row(s) were purged in ${batches} batch(es) ` +
        'before that and stay deleted, the rest is still due',
      {
        store: RELATIONAL_STORE,
        hint: 'run purgeExpired() again: it resumes with the rows still due (a purge is idempotent)',
        cause,
      },
    );
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
