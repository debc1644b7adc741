import { performance } from 'node:perf_hooks';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Keeps SQLite's WAL checkpoints out of purge batches. In WAL mode a commit that leaves the WAL at
 * or over `wal_autocheckpoint` pages runs a checkpoint before it returns
 * (https://www.sqlite.org/wal.html#automatic_checkpoint): during a purge that is every few batches,
 * about a thousand pages copied and two fsyncs inside one batch's call, so that batch takes two to
 * four times the budget (docs/performance.md has the trace). For the purge's duration the pacer
 * turns the automatic checkpoint off on this connection and runs the same PASSIVE checkpoint
 * between batches.
 *
 * Each checkpoint costs mostly its two fsyncs, whatever its size (a 1,000-page one and a 4,000-page
 * one both took 60–170 ms here): run at every threshold, they made a purge 1.3× one `DELETE`, which
 * pays one. So the pacer spaces them by time: after one, it waits ten times as long as that one took
 * (before the first, ten batch budgets). Checkpoints then take under a tenth of the purge's time, and
 * the WAL grows at most by what the purge writes in that time — the `DELETE` lets it grow by all it
 * writes. What is left when the purge ends, the next commit checkpoints, as SQLite always does once
 * the user's `wal_autocheckpoint` is back.
 *
 * The WAL's size is not read from the -shm file: closing any descriptor a process holds on it
 * drops every POSIX lock the process's SQLite connections hold there
 * (https://www.sqlite.org/howtocorrupt.html, section 2.2). `synchronous` is not touched.
 */
export class CheckpointPacer {
  private lastEnded = performance.now();
  private lastTook: number;

  private constructor(
    private readonly db: BetterSqlite3.Database,
    /** The user's wal_autocheckpoint, in pages: put back by finish(). */
    private readonly threshold: number,
    budgetMs: number,
  ) {
    this.lastTook = budgetMs;
  }

  /**
   * A pacer for `db`, or null where there is nothing to pace: an in-memory database, not in WAL
   * mode, or automatic checkpoints already off.
   */
  static open(db: BetterSqlite3.Database, budgetMs: number): CheckpointPacer | null {
    if (db.memory || !db.name) return null;
    if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
    const threshold = Number(db.pragma('wal_autocheckpoint', { simple: true }));
    if (!(threshold > 0)) return null;
    db.pragma('wal_autocheckpoint = 0');
    return new CheckpointPacer(db, threshold, budgetMs);
  }

  /**
   * Runs a checkpoint when the last one (or the purge's start) is long enough ago; true when it ran
   * one. Not inside a transaction the caller holds open on this connection (SQLite refuses it
   * there), nor while the connection is busy with another statement: the next batch tries again.
   */
  betweenBatches(): boolean {
    if (!this.db.open || this.db.inTransaction) return false;
    const began = performance.now();
    if (began - this.lastEnded < SPACING * this.lastTook) return false;
    if (!attempt(() => this.db.pragma('wal_checkpoint(PASSIVE)'))) return false;
    this.lastEnded = performance.now();
    this.lastTook = this.lastEnded - began;
    return true;
  }

  /**
   * Puts the user's setting back on the connection it was taken from, if that is still open; while
   * another statement keeps the connection busy, as soon as it is free.
   */
  finish(): void {
    if (!this.db.open) return;
    if (attempt(() => this.db.pragma(`wal_autocheckpoint = ${this.threshold}`))) return;
    setTimeout(() => this.finish(), RETRY_MS).unref();
  }
}

/** Runs `pragma`; false when SQLite or the driver refused it because the connection was busy. */
function attempt(pragma: () => unknown): boolean {
  try {
    pragma();
    return true;
  } catch (error) {
    if (isBusy(error)) return false;
    throw error;
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

/** Time between two checkpoints, as a multiple of the last one's duration. */
const SPACING = 10;
/** How soon finish() tries again on a busy connection. */
const RETRY_MS = 10;
