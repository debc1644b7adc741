import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { wrapDriverError } from './driver-errors';

/**
 * Keeps SQLite's WAL checkpoints out of purge batches. In WAL mode a commit that leaves the WAL at
 * or over `wal_autocheckpoint` pages runs a checkpoint before it returns
 * (https://www.sqlite.org/wal.html#automatic_checkpoint): during a purge that is every few batches,
 * about a thousand pages copied and two fsyncs inside one batch's call, so that batch takes two to
 * four times the budget (docs/performance.md has the trace). For the purge's duration the pacer
 * turns the automatic checkpoint off on this connection and runs `PRAGMA wal_checkpoint(PASSIVE)`
 * between batches instead.
 *
 * Spaced by time: a checkpoint's fixed cost (two fsyncs) run at every threshold made a purge 1.3×
 * one `DELETE`, which pays it once. After a checkpoint the pacer waits ten times as long as it took,
 * at most MAX_GAP_MS (a checkpoint's cost also grows with what it copies: without the bound each
 * wait makes the next checkpoint longer, and the WAL grew to hundreds of megabytes), and before the
 * first ten batch budgets. A purge that ran any checkpoint runs a last one when it ends, so the
 * application's next commit does not inherit it; a shorter purge leaves its few pages to that
 * commit, as SQLite would with the user's `wal_autocheckpoint`, which is back then.
 *
 * The purge runs it with the connection held (SqliteExecutor.exclusive): no transaction of the
 * application is open on it then, in which SQLite would refuse a checkpoint.
 *
 * The WAL's size is not read from the -shm file: closing any descriptor a process holds on it
 * drops every POSIX lock the process's SQLite connections hold there
 * (https://www.sqlite.org/howtocorrupt.html, section 2.2). `synchronous` is not touched.
 */
export class CheckpointPacer {
  private lastEnded: number;
  private lastTook: number;
  private ran = false;

  private constructor(
    private readonly db: BetterSqlite3.Database,
    /** The user's wal_autocheckpoint, in pages: put back by finish(). */
    private readonly threshold: number,
    budgetMs: number,
    private readonly clock: () => number,
  ) {
    this.lastEnded = clock();
    this.lastTook = budgetMs;
  }

  /**
   * A pacer for `db`, or null where there is nothing to pace: an in-memory database, not in WAL
   * mode, or automatic checkpoints already off. `clock` in milliseconds (a test's).
   */
  static open(
    db: BetterSqlite3.Database,
    budgetMs: number,
    clock: () => number = () => performance.now(),
  ): CheckpointPacer | null {
    if (db.memory || !db.name) return null;
    return guarded(() => {
      if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
      const threshold = Number(db.pragma('wal_autocheckpoint', { simple: true }));
      if (!(threshold > 0)) return null;
      db.pragma('wal_autocheckpoint = 0');
      return new CheckpointPacer(db, threshold, budgetMs, clock);
    });
  }

  /**
   * Runs a checkpoint when one is due (`last`: the purge's last batch is done, and it ran one
   * before); true when it ran one. Not while the connection is busy with another statement: the
   * next batch tries again.
   */
  betweenBatches(last: boolean): boolean {
    if (!this.db.open) return false;
    const began = this.clock();
    const due = last ? this.ran : began - this.lastEnded >= Math.min(MAX_GAP_MS, SPACING * this.lastTook);
    if (!due) return false;
    if (!attempt(() => this.db.pragma('wal_checkpoint(PASSIVE)'))) return false;
    this.lastEnded = this.clock();
    this.lastTook = this.lastEnded - began;
    this.ran = true;
    return true;
  }

  /**
   * Puts the user's setting back on the connection it was taken from, if that is still open; while
   * another statement keeps the connection busy, as soon as it is free — unless someone has set it
   * since (then theirs stays).
   */
  finish(): void {
    if (this.setAutomatic(this.threshold)) return;
    const retry = () => {
      try {
        if (!this.db.open || Number(this.db.pragma('wal_autocheckpoint', { simple: true })) !== 0) return;
        if (!this.setAutomatic(this.threshold)) setTimeout(retry, RETRY_MS).unref();
      } catch {
        // A timer has no caller to tell: the connection failed, and its next statement says so.
      }
    };
    setTimeout(retry, RETRY_MS).unref();
  }

  /** Sets wal_autocheckpoint; false when the connection was busy (or closed). */
  private setAutomatic(pages: number): boolean {
    return this.db.open && attempt(() => this.db.pragma(`wal_autocheckpoint = ${pages}`));
  }
}

/** Runs `pragma`; false when SQLite or the driver refused it because the connection was busy. */
function attempt(pragma: () => unknown): boolean {
  try {
    pragma();
    return true;
  } catch (error) {
    if (isBusy(error)) return false;
    throw wrapDriverError(error, undefined, 'a WAL checkpoint');
  }
}

function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw wrapDriverError(error, undefined, 'reading the WAL settings');
  }
}

/**
 * SQLITE_BUSY / SQLITE_LOCKED (https://www.sqlite.org/rescode.html#busy), or better-sqlite3's
 * refusal to run a statement while an iterator of the same connection is open
 * (https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md#iterate).
 */
function isBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
  return error instanceof TypeError && /busy/i.test(error.message);
}

/** Time between two checkpoints, as a multiple of the last one's duration, and at most. */
const SPACING = 10;
const MAX_GAP_MS = 1000;
/** How soon finish() tries again on a busy connection. */
const RETRY_MS = 10;
