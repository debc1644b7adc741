import type { EntityTable } from '../table/entity-table';
import type { NowMode } from '../table/table-sql';
import type { Executor } from '../drivers/executor';
import { bind } from '../table/statement';
import { lockedDueCount } from './purge-sql';

/** What one batch did. `done`: nothing due is left that this purge could take. */
export interface BatchOutcome {
  readonly rows: number;
  readonly done: boolean;
  /** The batch used all of its size (a time measurement of it says something about the size). */
  readonly full: boolean;
}

/** Runs the batches of one table; `size` is in rows, or in heap blocks for a block walk. */
export interface BatchRunner {
  /** The first batch's size and the most one may have. */
  readonly initial: number;
  readonly cap: number;
  next(size: number): Promise<BatchOutcome>;
  /** After the last batch: due rows left because another transaction held them (absent: this runner never skips). */
  skipped?(): Promise<number>;
}

export interface PurgeContext {
  readonly t: EntityTable;
  readonly executor: Executor;
  readonly ex: string;
  /** The bound instant, or undefined on the database clock. */
  readonly now: unknown;
  /** The caller's batchSize, if given: a cap on rows per batch. */
  readonly rowCap: number | undefined;
  readonly budgetMs: number;
}

/** Rows per batch when the caller sets no cap; the time budget decides below it. */
export const MAX_ROWS = 65_536;

/** Where "now" comes from in this purge's statements. */
export function modeOf(c: PurgeContext): NowMode {
  return c.now === undefined ? 'db' : 'param';
}

/**
 * Due rows other transactions hold locked, counted once the batches are done. A locking read
 * takes its locks only for its own transaction: one statement on its own (PostgreSQL), or in the
 * transaction `opening` begins (MariaDB/MySQL: READ COMMITTED, no gap locks).
 */
export async function lockedLeft(c: PurgeContext, opening?: readonly string[]): Promise<number> {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const s = t.statement(`purge:locked-due:${mode}`, () => lockedDueCount(t, mode, ex));
  const params = bind(s, { now });
  const rows = opening
    ? await executor.transaction((tx) => tx.rows(s, params), opening)
    : await executor.rows(s, params);
  return Number(rows[0]?.[0] ?? 0);
}
