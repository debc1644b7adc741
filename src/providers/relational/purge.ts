import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import type { PurgeOptions, PurgeResult } from '../contract';
import type { EntityTable } from './entity-table';
import type { BatchOp, Executor } from './executor';
import { RELATIONAL_STORE } from './options';
import { deleteDue, selectDue } from './sql-write';
import { bind } from './statement';

export const DEFAULT_PURGE_BATCH = 500;
const MAX_PURGE_BATCH = 1_000_000;
/** Rows per compare-and-delete statement (a fixed shape, padded). */
const DELETE_CHUNK = 32;
/** Rows per delete transaction: however large a batch is selected, no transaction holds more locks. */
const ROWS_PER_TRANSACTION = 1024;

export interface RelationalPurgeResult extends PurgeResult {
  /** Rows deleted per table. */
  readonly byTable: Readonly<Record<string, number>>;
}

/** Observation points for tests of the purge race (a writer between selection and deletion). */
export interface PurgeHooks {
  afterSelect?(table: string, selected: number): Promise<void> | void;
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
 * Deletes the rows of one table that are due at `now` (expires_at <= now), batch by batch: each
 * batch selects up to batchSize due keys with an exact token of their expiry, then deletes each
 * only if its expiry still equals that token — a row rewritten meanwhile survives. Idempotent.
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
  const select = t.statement(`due:${mode}:${options.batchSize}`, () => selectDue(t.sql, mode, ex, options.batchSize));
  const remove = t.statement('delete-due', () => deleteDue(t.sql, ex, DELETE_CHUNK));
  let deleted = 0;
  for (;;) {
    const rows = await executor.rows(select, bind(select, { now }));
    if (rows.length === 0) break;
    await hooks.afterSelect?.(t.spec.table, rows.length);
    let removed = 0;
    for (let from = 0; from < rows.length; from += ROWS_PER_TRANSACTION) {
      const ops: BatchOp[] = [];
      const slice = rows.slice(from, from + ROWS_PER_TRANSACTION);
      for (let start = 0; start < slice.length; start += DELETE_CHUNK) {
        const chunk = slice.slice(start, start + DELETE_CHUNK);
        const last = chunk[chunk.length - 1] as unknown[];
        const args: unknown[] = [];
        for (let i = 0; i < DELETE_CHUNK; i++) args.push(...(chunk[i] ?? last));
        ops.push({ statement: remove, params: bind(remove, { args }), check: (n) => (removed += n) });
      }
      await executor.batch(ops);
    }
    deleted += removed;
    progress.deleted += removed;
    progress.batches += 1;
    options.onProgress?.(progress.deleted);
    // A short batch was the last; a batch of rows all rewritten meanwhile leaves them to the next run.
    if (rows.length < options.batchSize || removed === 0) break;
  }
  return deleted;
}
