import { isLockConflict } from '../../purge/pacing';
import { bind } from '../../table/statement';
import { modeOf, type BatchRunner, type PurgeContext } from '../../purge/batch';
import { blocksAndDue, blocksBatch, blocksSkipLockedBatch, lockedDueInBlocks, tableBlocks } from './purge-sql';

/** Below this many due rows a PostgreSQL purge walks the index: the block walk pays for the table's size. */
const MIN_DUE_FOR_BLOCK_WALK = 4_096;

/**
 * The block walk, when no row cap was asked for and at least as many rows are due as the table
 * has blocks: then reading every block once costs less than reaching each due row through the index.
 */
export async function blockWalk(c: PurgeContext): Promise<BatchRunner | null> {
  if (c.rowCap !== undefined) return null;
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  const sizing = t.statement(`purge:pg-blocks-due:${mode}`, () => blocksAndDue(t, mode, ex));
  const [sized] = await executor.rows(sizing, bind(sizing, { args: [t.table, MIN_DUE_FOR_BLOCK_WALK], now }));
  let blocks = Number(sized?.[0] ?? 0);
  if (Number(sized?.[1] ?? 0) < Math.max(blocks, MIN_DUE_FOR_BLOCK_WALK)) return null;
  const countBlocks = t.statement('purge:pg-blocks', () => tableBlocks(t));
  const blockCount = async () =>
    Number((await executor.rows(countBlocks, bind(countBlocks, { args: [t.table] })))[0]?.[0] ?? 0);
  const fast = t.statement(`purge:pg-range:${mode}`, () => blocksBatch(t, mode, ex));
  const skipping = t.statement(`purge:pg-range-skip:${mode}`, () => blocksSkipLockedBatch(t, mode, ex));
  // Waiting on a writer's row lock is bounded by the budget and by half of deadlock_timeout (1 s by
  // default), read on the batch's own connection: the purge gives up before any deadlock check
  // runs, so a lock cycle with a writer never makes the writer the one rolled back.
  const opening = ['BEGIN', lockTimeout(c.budgetMs)];
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

/**
 * `SET LOCAL lock_timeout` to the least of the budget and half of deadlock_timeout, at least 1 ms
 * (0 would mean no limit). deadlock_timeout is read with current_setting (its text, e.g. '1s',
 * as an interval): the pg_settings view builds every setting's row, about 1 ms a batch.
 */
export function lockTimeout(budgetMs: number): string {
  const deadlockMs =
    "CAST(extract(epoch FROM CAST(current_setting('deadlock_timeout') AS interval)) * 1000 AS integer)";
  const half = `${deadlockMs} / 2`;
  return `SELECT set_config('lock_timeout', CAST(greatest(1, least(${Math.round(budgetMs)}, ${half})) AS text), true)`;
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
  const s = t.statement(`purge:locked-due-blocks:${mode}`, () => lockedDueInBlocks(t, mode, ex));
  let locked = 0;
  for (const range of ranges) {
    const args = blockBounds(range);
    locked += Number((await executor.rows(s, bind(s, { args, now })))[0]?.[0] ?? 0);
  }
  return locked;
}
