import { bind } from '../../table/statement';
import { MAX_ROWS, modeOf, type BatchRunner, type PurgeContext } from '../../purge/batch';
import { lockedLeft } from '../skipped-rows';
import { blockWalk } from './block-walk';
import { indexBatch } from './purge-sql';

/** PostgreSQL: the block walk when enough rows are due, else batches by the expiry index. */
export async function purgeRunner(c: PurgeContext): Promise<BatchRunner> {
  return (await blockWalk(c)) ?? indexRunner(c);
}

function indexRunner(c: PurgeContext): BatchRunner {
  const { t, executor, ex, now } = c;
  const mode = modeOf(c);
  return {
    skipped: () => lockedLeft(c),
    initial: 512,
    cap: c.rowCap ?? MAX_ROWS,
    async next(n) {
      const s = t.statement(`purge:pg-index:${mode}:${n}`, () => indexBatch(t, mode, ex, n));
      const rows = await executor.run(s, bind(s, { now }));
      // A short batch was the last (rows a writer held locked are left to the next run).
      return { rows, done: rows < n, full: rows === n };
    },
  };
}
