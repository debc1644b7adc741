import { connect, type StoreContext } from '../../connect';
import { LifespanError } from '../../errors';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { usage } from '../options';
import { EXIT_INTERRUPTED, Interrupted, untilInterrupted } from '../interrupt';
import { purgeProgress } from '../progress';
import type { Target, TargetOptions } from '../targets';
import { withTargets } from './with-targets';

export interface PurgeCommandOptions extends TargetOptions {
  readonly now?: string;
  readonly batch?: string;
  readonly yes?: boolean;
}

/**
 * `lifespan purge`: deletes expired rows of emulated stores, in batches; safe on a schedule.
 * Every store is counted before any is purged, so a refused --now deletes nothing anywhere.
 */
export async function purgeCommand(options: PurgeCommandOptions, io: Io): Promise<number> {
  const now = parseNow(options.now);
  const batchSize = parseBatch(options.batch);
  return withTargets(options, io, async ({ model, targets }, out) => {
    const opened: StoreContext[] = [];
    const counted: { target: Target; db: StoreContext; total: number | undefined }[] = [];
    try {
      for (const target of targets) {
        const db = await connect(model, target.opened.store);
        opened.push(db);
        const total = await db.countExpired(now ? { now } : {});
        if (now && !options.yes) await refuseLiveRows(db, target.name, now, total);
        counted.push({ target, db, total });
      }
      // Counting deletes nothing: a signal before this point ends the run as usual.
      return await untilInterrupted(async (stopIfAsked) => {
        const done = { target: '', deleted: 0, batches: 0 };
        try {
          for (const { target, db, total } of counted) {
            stopIfAsked();
            Object.assign(done, { target: target.name, deleted: 0, batches: 0 });
            if (total !== undefined) out.out(`${target.name}: ${total} expired row(s) to purge\n`);
            const progress = purgeProgress({ name: target.name, isTty: Boolean(io.isTty), write: out.out, total });
            const result = await db.purgeExpired({
              ...(now ? { now } : {}),
              ...(batchSize ? { batchSize } : {}),
              onProgress: (deletedSoFar: number, batch) => {
                Object.assign(done, { deleted: deletedSoFar, batches: batch.batches });
                progress.update(deletedSoFar);
                stopIfAsked();
              },
            });
            progress.finish();
            out.out(`${target.name}: purged ${result.deleted} expired row(s) in ${result.batches} batch(es)\n`);
          }
          return EXIT_OK;
        } catch (error) {
          if (!(error instanceof Interrupted)) throw error;
          out.err(
            `interrupted (${error.signal}): ${done.target ? `${done.target}: purged ${done.deleted} expired row(s) in ${done.batches} batch(es) so far; ` : ''}` +
              'every finished batch is committed and the running one ended; run lifespan purge again to continue\n',
          );
          return EXIT_INTERRUPTED;
        }
      });
    } finally {
      for (const db of opened) await db.close();
    }
  });
}

/**
 * A --now later than the database clock would delete rows that are still live: refused without
 * --yes when it would delete more rows than the database clock says have expired.
 */
async function refuseLiveRows(db: StoreContext, name: string, now: Date, atNow: number | undefined): Promise<void> {
  const atDatabaseClock = await db.countExpired({});
  if (atNow === undefined || atDatabaseClock === undefined || atNow <= atDatabaseClock) return;
  throw new LifespanError(
    'CLI_PURGE_LIVE_ROWS',
    `--now ${now.toISOString()} is later than the database clock: it would delete ${atNow - atDatabaseClock} ` +
      `row(s) that are still live (${atNow} instead of ${atDatabaseClock}); nothing was purged`,
    { store: name, hint: 'omit --now to judge expiry by the database clock, or re-run with --yes to delete them' },
  );
}

function parseNow(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw usage(`--now '${value}' is not an ISO 8601 instant`, 'write e.g. --now 2026-12-01T00:00:00Z');
  }
  return date;
}

function parseBatch(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) {
    throw usage(`--batch '${value}' is not a whole number between 1 and 1000000`, 'write e.g. --batch 1000');
  }
  return n;
}
