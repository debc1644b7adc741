import type { SqliteExecutor } from '../../drivers/sqlite-executor';
import { bind } from '../../table/statement';
import { MAX_ROWS, modeOf, type BatchOutcome, type BatchRunner, type PurgeContext } from '../../purge/batch';
import { CheckpointPacer } from '../../drivers/sqlite-checkpoint-pacer';
import { keyedBatch, rangeBatch } from './purge-sql';

/**
 * SQLite: batches cut from one walk of the expiry index; a batch of rows sharing one instant is
 * taken by key. The WAL checkpoints a commit would run inside a batch run between batches instead
 * (drivers/sqlite-checkpoint-pacer.ts), each on the free connection, as every statement of the executor is.
 */
export async function purgeRunner(c: PurgeContext, executor: SqliteExecutor): Promise<BatchRunner> {
  const { t, ex, now } = c;
  const pacer = await executor.exclusive(async () => CheckpointPacer.open(executor.connection, c.budgetMs));
  const mode = modeOf(c);
  const keyed = async (n: number): Promise<BatchOutcome> => {
    const s = t.statement(`purge:sqlite-keyed:${mode}:${n}`, () => keyedBatch(t, mode, ex, n));
    const rows = await executor.run(s, bind(s, { now }));
    return { rows, done: rows < n, full: rows === n };
  };
  return {
    initial: 1024,
    cap: c.rowCap ?? MAX_ROWS,
    async next(n) {
      const s = t.statement(`purge:sqlite-range:${mode}:${n}`, () => rangeBatch(t, mode, ex, n));
      const rows = await executor.run(s, bind(s, { now }));
      // Nothing below the boundary: the oldest due rows share one instant, or none is left.
      if (rows === 0) return keyed(n);
      return { rows, done: false, full: rows === n };
    },
    ...(pacer
      ? {
          between: (last) => executor.exclusive(async () => pacer.betweenBatches(last)),
          // Not through the executor: it would ask a closed pool for a connection, and its error
          // would hide the purge's own.
          finish: async () => pacer.finish(),
        }
      : {}),
  };
}
