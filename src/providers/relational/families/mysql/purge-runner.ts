import { bind } from '../../table/statement';
import { MAX_ROWS, modeOf, type BatchRunner, type PurgeContext } from '../../purge/batch';
import { lockedLeft } from '../skipped-rows';
import type { EntityTable } from '../../table/entity-table';
import type { Executor } from '../../drivers/executor';
import { deleteKeys, pickBatch } from './purge-sql';

/** Most placeholders one MariaDB/MySQL prepared statement takes (the key DELETE binds one per key column per row). */
const MYSQL_MAX_PLACEHOLDERS = 65_535;

/** MariaDB/MySQL: picked keys deleted by key, passing over locked rows where the server can. */
export async function purgeRunner(c: PurgeContext): Promise<BatchRunner> {
  return keyRunner(c, await supportsSkipLocked(c.executor, c.t));
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
function keyRunner(c: PurgeContext, skipLocked: boolean): BatchRunner {
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
      const pick = t.statement(`purge:my-pick:${mode}:${n}:${skipLocked}`, () => pickBatch(t, mode, ex, n, skipLocked));
      const outcome = await executor.transaction(async (tx) => {
        const keys = await tx.rows(pick, bind(pick, { now }));
        if (keys.length === 0) return { picked: 0, rows: 0 };
        const size = Math.min(n, 2 ** Math.ceil(Math.log2(keys.length)));
        const remove = t.statement(`purge:my-delete:${mode}:${size}`, () => deleteKeys(t, mode, ex, size));
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
