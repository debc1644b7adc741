import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import type { PurgeOptions, PurgeResult } from '../contract';
import type { EntityTable } from './entity-table';
import type { Executor } from './executor';
import { RELATIONAL_STORE } from './options';
import { purgeBatch } from './sql-purge';
import { bind } from './statement';

export const DEFAULT_PURGE_BATCH = 500;
const MAX_PURGE_BATCH = 1_000_000;

export interface RelationalPurgeResult extends PurgeResult {
  /** Rows deleted per table. */
  readonly byTable: Readonly<Record<string, number>>;
}

/** Observation points for tests of the purge race and for timing batches. */
export interface PurgeHooks {
  /** Runs right before each batch's DELETE statement of `table` is sent. */
  beforeBatch?(table: string): Promise<void> | void;
}

export function checkPurgeOptions(options: Partial<PurgeOptions>): { now: Date | undefined; batchSize: number } {
  const { now, batchSize = DEFAULT_PURGE_BATCH } = options;
  if (now !== undefined && (!(now instanceof Date) || Number.isNaN(now.getTime()))) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `now ${showValue(now)} is not a valid Date`, {
      store: RELATIONAL_STORE,
      hint: 'pass now as a Date, or leave it out to use the database clock',
    });
  }
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > MAX_PURGE_BATCH) {
    throw new LifespanError(
      ErrorCodes.BAD_ARGUMENT,
      `batchSize ${showValue(batchSize)} is not a whole number 1..${MAX_PURGE_BATCH}`,
      {
        store: RELATIONAL_STORE,
        hint: `leave it out for ${DEFAULT_PURGE_BATCH}`,
      },
    );
  }
  return { now, batchSize };
}

/**
 * Deletes the rows of one table that are due at `now` (expires_at <= now), batch by batch, each
 * batch one DELETE statement that picks and deletes up to batchSize due rows: a row rewritten
 * before its batch's statement runs is no longer due there and survives. Idempotent.
 */
export async function purgeTable(
  t: EntityTable,
  executor: Executor,
  options: { now: Date | undefined; batchSize: number; onProgress?: (deletedSoFar: number) => void },
  progress: { deleted: number; batches: number },
  hooks: PurgeHooks = {},
): Promise<number> {
  const ex = t.expiryColumn;
  if (!ex) return 0;
  const now = options.now ? t.encodeInstant(options.now) : t.nowParam();
  const mode = now === undefined ? 'db' : 'param';
  const remove = t.statement(`purge:${mode}:${options.batchSize}`, () =>
    purgeBatch(t.sql, mode, ex, options.batchSize),
  );
  const params = bind(remove, { now });
  let deleted = 0;
  for (;;) {
    await hooks.beforeBatch?.(t.spec.table);
    const removed = await executor.run(remove, params);
    if (removed === 0) break;
    deleted += removed;
    progress.deleted += removed;
    progress.batches += 1;
    options.onProgress?.(progress.deleted);
    // A short batch was the last (on PostgreSQL, rows a writer held locked are left to the next run).
    if (removed < options.batchSize) break;
  }
  return deleted;
}
