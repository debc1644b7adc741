import type { EntityTable } from '../table/entity-table';
import type { NowMode } from '../table/table-sql';
import type { Executor } from '../drivers/executor';

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
  /**
   * Work after each batch, outside it (SQLite: the WAL checkpoint); `last`: the purge's last batch
   * is done. True when it did any.
   */
  between?(last: boolean): Promise<boolean>;
  /** After the last batch, also when the purge failed: undoes what the runner set up for the purge. */
  finish?(): Promise<void>;
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
