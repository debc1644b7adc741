import { connect, type StoreContext } from '../../connect';
import { LifespanError } from '../../errors';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { usage } from '../options';
import { EXIT_INTERRUPTED, untilInterrupted } from '../interrupt';
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
    const done = { target: '', deleted: 0, batches: 0 };
    const report = (signal: unknown) =>
      out.err(
        `interrupted (${String(signal)}): ${done.target ? `${done.target}: purged ${done.deleted} expired row(s) in ${done.batches} batch(es) so far; ` : 'nothing purged; '}` +
          'every finished batch is committed and the running one ended; run lifespan purge again to continue\n',
      );
    try {
      return await untilInterrupted(
        async (signal) => {
          const counted: { target: Target; db: StoreContext; total: number | undefined }[] = [];
          for (const target of targets) {
            if (signal.aborted) break;
            const db = await connect(model, target.opened.store);
            opened.push(db);
            const total = await db.countExpired(now ? { now } : {});
            if (now && !options.yes) await refuseLiveRows(db, target.name, now, total);
            counted.push({ target, db, total });
          }
          for (const { target, db, total } of counted) {
            if (signal.aborted) break;
            Object.assign(done, { target: target.name, deleted: 0, batches: 0 });
            if (total !== undefined) out.out(`${target.name}: ${total} expired row(s) to purge\n`);
            const progress = purgeProgress({ name: target.name, isTty: Boolean(io.isTty), write: out.out, total });
            try {
              const result = await db.purgeExpired({
                ...(now ? { now } : {}),
                ...(batchSize ? { batchSize } : {}),
                signal,
                onProgress: (deletedSoFar: number, batch) => {
                  Object.assign(done, { deleted: deletedSoFar, batches: batch.batches });
                  progress.update(deletedSoFar);
                },
              });
              Object.assign(done, { deleted: result.deleted, batches: result.batches });
            } finally {
              progress.finish();
            }
            if (signal.aborted) break;
            out.out(`${target.name}: purged ${done.deleted} expired row(s) in ${done.batches} batch(es)\n`);
          }
          if (!signal.aborted) return EXIT_OK;
          report(signal.reason);
          return EXIT_INTERRUPTED;
        },
        () => report('a second signal'),
      );
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
