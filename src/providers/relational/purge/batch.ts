import type { DialectFamily } from '../families/dialects';
import type { EntityTable } from '../table/entity-table';
import type { Executor } from '../drivers/executor';
import { isLockConflict } from './pacing';
import type { NowMode } from '../table/entity-table';
import {
  lockedDueCount,
  mysqlDeleteKeys,
  mysqlPickBatch,
  pgBlockCount,
  pgBlocksAndDue,
  pgBlocksBatch,
  pgBlocksSkipLockedBatch,
  pgIndexBatch,
  pgLockedDueInBlocks,
  sqliteKeyedBatch,
  sqliteRangeBatch,
} from './purge-sql';
import { bind } from '../table/statement';

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
const MAX_ROWS = 65_536;
/** Most placeholders one MariaDB/MySQL prepared statement takes (the key DELETE binds one per key column per row). */
const MYSQL_MAX_PLACEHOLDERS = 65_535;
/** Below this many due rows a PostgreSQL purge walks the index: the block walk pays for the table's size. */
const MIN_DUE_FOR_BLOCK_WALK = 4_096;

export async function batchRunner(c: PurgeContext): Promise<BatchRunner> {
  return BATCH_RUNNERS[c.t.family.name](c);
}

/** How each family walks its due rows batch by batch. */
const BATCH_RUNNERS: Record<DialectFamily, (c: PurgeContext) => Promise<BatchRunner>> = {
  sqlite: async (c) => sqliteRunner(c),
  postgres: async (c) => (await pgBlockWalk(c)) ?? pgIndexRunner(c),
  mysql: async (c) => mysqlRunner(c, await supportsSkipLocked(c.executor, c.t)),
};

function modeOf(c: PurgeContext): NowMode {
  return c.now === undefined ? 'db' : 'param';
}

function sqliteRunner(c: PurgeContext): BatchRunner {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const keyed = async (n: number): Promise<BatchOutcome> => {
    const s = t.statement(`purge:sqlite-keyed:${mode}:${n}`, () => sqliteKeyedBatch(t, mode, ex, n));
    const rows = await executor.run(s, bind(s, { now }));
    return { rows, done: rows < n, full: rows === n };
  };
  return {
    initial: 1024,
    cap: c.rowCap ?? MAX_ROWS,
    async next(n) {
      const s = t.statement(`purge:sqlite-range:${mode}:${n}`, () => sqliteRangeBatch(t, mode, ex, n));
      const rows = await executor.run(s, bind(s, { now }));
      // Nothing below the boundary: the oldest due rows share one instant, or none is left.
      if (rows === 0) return keyed(n);
      return { rows, done: false, full: rows === n };
    },
  };
}

function pgIndexRunner(c: PurgeContext): BatchRunner {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  return {
    skipped: () => lockedLeft(c),
    initial: 512,
    cap: c.rowCap ?? MAX_ROWS,
    async next(n) {
      const s = t.statement(`purge:pg-index:${mode}:${n}`, () => pgIndexBatch(t, mode, ex, n));
      const rows = await executor.run(s, bind(s, { now }));
      // A short batch was the last (rows a writer held locked are left to the next run).
      return { rows, done: rows < n, full: rows === n };
    },
  };
}

/**
 * The block walk, when no row cap was asked for and at least as many rows are due as the table
 * has blocks: then reading every block once costs less than reaching each due row through the index.
 */
async function pgBlockWalk(c: PurgeContext): Promise<BatchRunner | null> {
  if (c.rowCap !== undefined) return null;
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const sizing = t.statement(`purge:pg-blocks-due:${mode}`, () => pgBlocksAndDue(t, mode, ex));
  const [sized] = await executor.rows(sizing, bind(sizing, { args: [t.table, MIN_DUE_FOR_BLOCK_WALK], now }));
  let blocks = Number(sized?.[0] ?? 0);
  if (Number(sized?.[1] ?? 0) < Math.max(blocks, MIN_DUE_FOR_BLOCK_WALK)) return null;
  const countBlocks = t.statement('purge:pg-blocks', () => pgBlockCount(t));
  const blockCount = async () =>
    Number((await executor.rows(countBlocks, bind(countBlocks, { args: [t.table] })))[0]?.[0] ?? 0);
  const fast = t.statement(`purge:pg-range:${mode}`, () => pgBlocksBatch(t, mode, ex));
  const skipping = t.statement(`purge:pg-range-skip:${mode}`, () => pgBlocksSkipLockedBatch(t, mode, ex));
  // Waiting on a writer's row lock is bounded by the budget and by half of deadlock_timeout (1 s by
  // default), read on the batch's own connection: the purge gives up before any deadlock check
  // runs, so a lock cycle with a writer never makes the writer the one rolled back.
  const opening = ['BEGIN', pgLockTimeout(c.budgetMs)];
  // Only a range taken past a writer's lock can have left due rows behind.
  const skippedRanges: BlockRange[] = [];
  let at = 0;
  return {
    skipped: () => lockedInRanges(c, skippedRanges),
    initial: 64,
    cap: 1 << 20,
    async next(size) {
      const range = { from: at, to: at + size };
      const args = blockBounds(range);
      let rows: number;
      try {
        rows = await executor.runInTransaction(opening, fast, bind(fast, { args, now }));
      } catch (error) {
        if (!isLockConflict(error)) throw error;
        // A writer holds a row of this range: take the rest of the range without waiting on it.
        rows = await executor.run(skipping, bind(skipping, { args, now }));
        addRange(skippedRanges, range);
      }
      at += size;
      // Rows written after the walk started may have extended the table.
      if (at >= blocks) blocks = await blockCount();
      return { rows, done: at >= blocks, full: true };
    },
  };
}

/** `SET LOCAL lock_timeout` to the least of the budget and half of deadlock_timeout, at least 1 ms (0 would mean no limit). */
function pgLockTimeout(budgetMs: number): string {
  const half = "(SELECT CAST(setting AS integer) FROM pg_settings WHERE name = 'deadlock_timeout') / 2";
  return `SELECT set_config('lock_timeout', CAST(greatest(1, least(${Math.round(budgetMs)}, ${half})) AS text), true)`;
}

/**
 * Due rows other transactions hold locked, counted once the batches are done. A locking read
 * takes its locks only for its own transaction: one statement on its own (PostgreSQL), or in the
 * transaction `opening` begins (MariaDB/MySQL: READ COMMITTED, no gap locks).
 */
async function lockedLeft(c: PurgeContext, opening?: readonly string[]): Promise<number> {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const s = t.statement(`purge:locked-due:${mode}`, () => lockedDueCount(t, mode, ex));
  const params = bind(s, { now });
  const rows = opening
    ? await executor.transaction((tx) => tx.rows(s, params), opening)
    : await executor.rows(s, params);
  return Number(rows[0]?.[0] ?? 0);
}

/** Heap blocks `from` (included) to `to` (excluded). */
interface BlockRange {
  from: number;
  to: number;
}

/** A block range's statement args: the first TIDs of its first block and of the block after it. */
function blockBounds(range: BlockRange): string[] {
  return [`(${range.from},0)`, `(${range.to},0)`];
}

/** Adds a range walked after the last one: consecutive skipped batches make one range, counted once. */
function addRange(ranges: BlockRange[], range: BlockRange): void {
  const last = ranges[ranges.length - 1];
  if (last && last.to === range.from) last.to = range.to;
  else ranges.push({ ...range });
}

/** The block walk's locked due rows: only in the ranges it took past a writer's lock, one statement a range. */
async function lockedInRanges(c: PurgeContext, ranges: readonly BlockRange[]): Promise<number> {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const s = t.statement(`purge:locked-due-blocks:${mode}`, () => pgLockedDueInBlocks(t, mode, ex));
  let locked = 0;
  for (const range of ranges) {
    const args = blockBounds(range);
    locked += Number((await executor.rows(s, bind(s, { args, now })))[0]?.[0] ?? 0);
  }
  return locked;
}

/** MariaDB 10.6+ and MySQL 8 can pass over locked rows. */
async function supportsSkipLocked(executor: Executor, t: EntityTable): Promise<boolean> {
  const s = t.statement('purge:version', () => t.finish(t.writer(), 'SELECT VERSION()', true));
  const version = String((await executor.rows(s, []))[0]?.[0] ?? '');
  const [major = 0, minor = 0] = version.split(/[.-]/).map(Number);
  if (/mariadb/i.test(version)) return major > 10 || (major === 10 && minor >= 6);
  return major >= 8;
}

/**
 * MariaDB/MySQL: each batch one short READ COMMITTED transaction (no gap locks): lock up to n due
 * keys in expiry order, passing over rows a writer holds, then delete them by key with the expiry
 * re-checked. The purge waits on no writer, so it cannot take part in a deadlock.
 */
function mysqlRunner(c: PurgeContext, skipLocked: boolean): BatchRunner {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const opening = ['SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'START TRANSACTION'];
  const width = t.keyColumns.length;
  // The key DELETE binds width values per row plus `now`: the largest power of two that fits.
  const fits = 2 ** Math.floor(Math.log2((MYSQL_MAX_PLACEHOLDERS - 1) / width));
  return {
    // Without SKIP LOCKED the pick waits on locked rows instead of passing over them.
    ...(skipLocked ? { skipped: () => lockedLeft(c, opening) } : {}),
    initial: 512,
    cap: Math.min(c.rowCap ?? MAX_ROWS, fits),
    async next(n) {
      const pick = t.statement(`purge:my-pick:${mode}:${n}:${skipLocked}`, () =>
        mysqlPickBatch(t, mode, ex, n, skipLocked),
      );
      const outcome = await executor.transaction(async (tx) => {
        const keys = await tx.rows(pick, bind(pick, { now }));
        if (keys.length === 0) return { picked: 0, rows: 0 };
        const size = Math.min(n, 2 ** Math.ceil(Math.log2(keys.length)));
        const remove = t.statement(`purge:my-delete:${mode}:${size}`, () => mysqlDeleteKeys(t, mode, ex, size));
        const args = new Array<unknown>(size * width);
        for (let i = 0; i < size; i++) {
          const key = keys[Math.min(i, keys.length - 1)] as unknown[];
          for (let j = 0; j < width; j++) args[i * width + j] = key[j];
        }
        return { picked: keys.length, rows: await tx.run(remove, bind(remove, { args, now })) };
      }, opening);
      return { rows: outcome.rows, done: outcome.picked < n, full: outcome.picked === n };
    },
  };
}
