import { performance } from 'node:perf_hooks';
import { ErrorCodes } from '../../../error-codes';
import { LifespanError } from '../../../errors';
import { showValue } from '../../../model/duration';
import type { PurgeBatchInfo, PurgeOptions, PurgeResult } from '../../contract';
import type { EntityTable } from '../table/entity-table';
import type { Executor } from '../drivers/executor';
import { RELATIONAL_STORE } from '../options';
import { familyOperations } from '../families/operations-by-dialect';
import type { NowMode, TableSql } from '../table/table-sql';
import type { Statement } from '../table/statement';
import type { BatchOutcome, BatchRunner } from './batch';
import { BatchSizer, PURGE_RETRIES, PurgeInterruptedError, backoffMs, isLockConflict, sleep } from './pacing';

export const DEFAULT_PURGE_BUDGET_MS = 50;
const MAX_PURGE_BATCH = 1_000_000;
const MAX_PURGE_BUDGET_MS = 10_000;

export interface RelationalPurgeResult extends PurgeResult {
  /** Rows deleted per table. */
  readonly byTable: Readonly<Record<string, number>>;
}

/** Observation points for tests of the purge race and for timing batches. */
export interface PurgeHooks {
  /** Runs right before each batch of `table` is sent (and before each retry of it). */
  beforeBatch?(table: string): Promise<void> | void;
  /** Runs when each batch of `table` is done, also one that deleted nothing (onProgress sees only those that did). */
  afterBatch?(table: string, rows: number): void;
  /** Runs after work the runner did after a batch (SQLite: a WAL checkpoint), with how long it took. */
  between?(table: string, ms: number): void;
}

export interface CheckedPurgeOptions {
  readonly now: Date | undefined;
  /** The caller's cap on rows per batch, if any. */
  readonly batchSize: number | undefined;
  readonly budgetMs: number;
  readonly onProgress?: PurgeOptions['onProgress'];
  readonly signal?: AbortSignal;
}

export function checkPurgeOptions(options: Partial<PurgeOptions>): CheckedPurgeOptions {
  const { now, batchSize, batchBudgetMs = DEFAULT_PURGE_BUDGET_MS, onProgress, signal } = options;
  if (now !== undefined && (!(now instanceof Date) || Number.isNaN(now.getTime()))) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `now ${showValue(now)} is not a valid Date`, {
      store: RELATIONAL_STORE,
      hint: 'pass now as a Date, or leave it out to use the database clock',
    });
  }
  if (batchSize !== undefined && (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > MAX_PURGE_BATCH)) {
    throw new LifespanError(
      ErrorCodes.BAD_ARGUMENT,
      `batchSize ${showValue(batchSize)} is not a whole number 1..${MAX_PURGE_BATCH}`,
      { store: RELATIONAL_STORE, hint: 'leave it out to size batches by batchBudgetMs alone' },
    );
  }
  if (typeof batchBudgetMs !== 'number' || !(batchBudgetMs >= 1 && batchBudgetMs <= MAX_PURGE_BUDGET_MS)) {
    throw new LifespanError(
      ErrorCodes.BAD_ARGUMENT,
      `batchBudgetMs ${showValue(batchBudgetMs)} is not a number of milliseconds 1..${MAX_PURGE_BUDGET_MS}`,
      { store: RELATIONAL_STORE, hint: `leave it out for ${DEFAULT_PURGE_BUDGET_MS} ms per batch` },
    );
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `onProgress ${showValue(onProgress)} is not a function`, {
      store: RELATIONAL_STORE,
      hint: 'pass (deletedSoFar, batch) => …, or leave it out',
    });
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `signal ${showValue(signal)} is not an AbortSignal`, {
      store: RELATIONAL_STORE,
      hint: 'pass an AbortController’s signal, or leave it out',
    });
  }
  return {
    now,
    batchSize,
    budgetMs: batchBudgetMs,
    ...(onProgress ? { onProgress } : {}),
    ...(signal ? { signal } : {}),
  };
}

/** Counters shared by the tables of one purge. */
export interface PurgeProgress {
  deleted: number;
  batches: number;
  skipped: number;
  readonly startedAt: number;
}

/**
 * Deletes the rows of one table that are due at `now` (expires_at <= now), batch by batch. Every
 * batch's DELETE re-checks the expiry itself, so a row renewed before the batch reaches it
 * survives. Batches are sized to `budgetMs`; one that meets a deadlock or lock-wait timeout is
 * retried with backoff, and after the retries the purge stops with PURGE_INTERRUPTED. Idempotent.
 */
export async function purgeTable(
  t: EntityTable,
  executor: Executor,
  options: CheckedPurgeOptions,
  progress: PurgeProgress,
  hooks: PurgeHooks = {},
): Promise<number> {
  const ex = t.expiryColumn;
  if (!ex) return 0;
  const now = options.now ? t.encodeInstant(options.now) : t.nowParam();
  const table = t.spec.table;
  const runner = await familyOperations(t.dialect).purgeRunner({
    t,
    executor,
    ex,
    now,
    rowCap: options.batchSize,
    budgetMs: options.budgetMs,
  });
  const sizer = new BatchSizer(
    options.budgetMs,
    startSize(t, options.budgetMs, runner.cap) ?? runner.initial,
    runner.cap,
  );
  let deleted = 0;
  try {
    for (;;) {
      const started = performance.now();
      const outcome = await withRetries(table, progress, async () => {
        await hooks.beforeBatch?.(table);
        const sent = performance.now();
        const result = await runner.next(sizer.size);
        sizer.record(performance.now() - sent, result);
        return result;
      });
      hooks.afterBatch?.(table, outcome.rows);
      if (outcome.rows > 0) {
        deleted += outcome.rows;
        progress.deleted += outcome.rows;
        progress.batches += 1;
        options.onProgress?.(progress.deleted, batchInfo(table, outcome, started, progress));
      }
      // SQLite's driver is synchronous: without a turn of the event loop between batches, a
      // signal handler, a timer or a request of the caller's service would wait for the whole purge.
      await nextTurn();
      // Stopped: no more work of the purge's, a checkpoint included.
      if (options.signal?.aborted) break;
      // A turn after it too: the checkpoint and the next batch do not add up to one long wait.
      if (await between(runner, hooks, table, outcome.done)) await nextTurn();
      if (outcome.done) break;
    }
    if (runner.skipped) progress.skipped += await runner.skipped();
  } catch (error) {
    // The purge's own error is the one to report; finish() failing too must not hide it.
    await runner.finish?.().catch(() => undefined);
    throw error;
  }
  await runner.finish?.();
  const proven = sizer.proven;
  if (proven !== undefined) startSizes.set(t, { budgetMs: options.budgetMs, cap: runner.cap, size: proven });
  return deleted;
}

/** The runner's work between batches (SQLite: a WAL checkpoint), timed for the hooks. */
async function between(runner: BatchRunner, hooks: PurgeHooks, table: string, last: boolean): Promise<boolean> {
  if (!runner.between) return false;
  const began = performance.now();
  const did = await runner.between(last);
  if (did) hooks.between?.(table, performance.now() - began);
  return did;
}

/**
 * The last batch size that deleted rows within the budget in the last purge of each table (of this
 * session; BatchSizer.proven), for the same budget and cap: a purge job that runs every minute
 * starts where the previous one settled instead of at the
 * family's cautious first size. On a small table that is the difference between one batch and
 * three, each rewriting the same scattered pages (docs/performance.md, the small-table purge).
 */
const startSizes = new WeakMap<
  EntityTable,
  { readonly budgetMs: number; readonly cap: number; readonly size: number }
>();

function startSize(t: EntityTable, budgetMs: number, cap: number): number | undefined {
  const last = startSizes.get(t);
  return last && last.budgetMs === budgetMs && last.cap === cap ? last.size : undefined;
}

function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

function batchInfo(table: string, outcome: BatchOutcome, started: number, progress: PurgeProgress): PurgeBatchInfo {
  const end = performance.now();
  const seconds = (end - progress.startedAt) / 1000;
  return {
    table,
    rows: outcome.rows,
    ms: end - started,
    batches: progress.batches,
    rowsPerSecond: seconds > 0 ? Math.round(progress.deleted / seconds) : 0,
  };
}

async function withRetries(
  table: string,
  progress: PurgeProgress,
  batch: () => Promise<BatchOutcome>,
): Promise<BatchOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await batch();
    } catch (error) {
      if (!isLockConflict(error)) throw error;
      if (attempt >= PURGE_RETRIES) throw new PurgeInterruptedError(table, progress.deleted, progress.batches, error);
      await sleep(backoffMs(attempt));
    }
  }
}

/** The statement that opens a batch of n rows on the family's index walk (what explain and the plan snapshots show). */
export function firstPurgeBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement {
  return familyOperations(t.dialect).firstPurgeBatch(t, mode, ex, n);
}
