import * as fs from 'node:fs';
import { endianness } from 'node:os';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Keeps SQLite's WAL checkpoints out of purge batches. In WAL mode a commit that leaves the WAL at
 * or over `wal_autocheckpoint` pages runs a checkpoint before it returns
 * (https://www.sqlite.org/wal.html#automatic_checkpoint): during a purge that is every few batches,
 * about a thousand pages copied and two fsyncs inside one batch's call, so that batch takes two to
 * four times the budget (docs/performance.md has the trace). For the purge's duration the pacer
 * turns the automatic checkpoint off on this connection and runs the same PASSIVE checkpoint between
 * batches, at the same threshold; it reads the WAL's size from the wal-index header in the -shm file
 * (https://www.sqlite.org/walformat.html, "The WAL-Index Header"). `synchronous` is not touched, and
 * the user's `wal_autocheckpoint` is put back when the purge ends, however it ends.
 */
export class CheckpointPacer {
  private constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly shm: number,
    /** The user's wal_autocheckpoint, in pages: put back by finish(). */
    private readonly threshold: number,
  ) {}

  /**
   * A pacer for `db`, or null where there is nothing to pace: not in WAL mode, automatic
   * checkpoints already off, an in-memory database, or a wal-index this reader does not recognise
   * (exclusive locking mode keeps it in heap memory, with no -shm file).
   */
  static open(db: BetterSqlite3.Database): CheckpointPacer | null {
    if (db.memory || !db.name) return null;
    if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return null;
    const threshold = Number(db.pragma('wal_autocheckpoint', { simple: true }));
    if (!(threshold > 0)) return null;
    let shm: number;
    try {
      shm = fs.openSync(`${db.name}-shm`, 'r');
    } catch {
      return null;
    }
    const pacer = new CheckpointPacer(db, shm, threshold);
    if (pacer.frames() === null) {
      fs.closeSync(shm);
      return null;
    }
    db.pragma('wal_autocheckpoint = 0');
    return pacer;
  }

  /** Runs a checkpoint when the WAL has reached the threshold; true when it ran one. */
  betweenBatches(): boolean {
    const frames = this.frames();
    if (frames === null || frames < this.threshold || !this.db.open) return false;
    this.db.pragma('wal_checkpoint(PASSIVE)');
    return true;
  }

  /** Puts the user's setting back (on the connection it was taken from, if that is still open). */
  finish(): void {
    try {
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.threshold}`);
    } finally {
      fs.closeSync(this.shm);
    }
  }

  /**
   * Frames in the WAL (mxFrame of the wal-index header), or null when the header is not one this
   * reader knows or was being rewritten (its two copies differ): then no checkpoint is run on it.
   */
  private frames(): number | null {
    const header = Buffer.alloc(HEADER_BYTES * 2);
    if (fs.readSync(this.shm, header, 0, header.length, 0) !== header.length) return null;
    if (!header.subarray(0, HEADER_BYTES).equals(header.subarray(HEADER_BYTES))) return null;
    const u32 = (offset: number) => (LITTLE_ENDIAN ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
    if (u32(0) !== WAL_INDEX_VERSION || header[12] !== 1) return null;
    return u32(16);
  }
}

/** The wal-index header (WalIndexHdr) is 48 bytes, written twice; its fields are in native byte order. */
const HEADER_BYTES = 48;
const WAL_INDEX_VERSION = 3007000;
const LITTLE_ENDIAN = endianness() === 'LE';
