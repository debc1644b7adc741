import { bind } from '../../table/statement';
import { MAX_ROWS, modeOf, type BatchOutcome, type BatchRunner, type PurgeContext } from '../../purge/batch';
import { keyedBatch, rangeBatch } from './purge-sql';

/** SQLite: batches cut from one walk of the expiry index; a batch of rows sharing one instant is taken by key. */
export function purgeRunner(c: PurgeContext): BatchRunner {
  const { t, executor, ex, now } = c;
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
  };
}
