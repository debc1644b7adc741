/**
 * The SQLite purge's checkpoint pacer against a connection stand-in and a clock of the test's own
 * (no database): how it spaces checkpoints when each takes longer the more the WAL holds, and how
 * it puts the user's setting back.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { CheckpointPacer } from '../../src/providers/relational/drivers/sqlite-checkpoint-pacer';
import { LifespanError } from '../../src/errors';

/** A WAL-mode connection whose checkpoint takes a quarter of the time since the last one (what it copies). */
class FakeConnection {
  open = true;
  memory = false;
  name = '/tmp/fake.db';
  autocheckpoint = 1000;
  now = 0;
  checkpoints: number[] = [];
  busy = false;
  failing: Error | null = null;
  private lastCheckpoint = 0;

  pragma(source: string): unknown {
    if (this.failing) throw this.failing;
    if (this.busy) throw new TypeError('This database connection is busy executing a query');
    if (source === 'journal_mode') return 'wal';
    if (source === 'wal_autocheckpoint') return this.autocheckpoint;
    const set = /^wal_autocheckpoint = (\d+)$/.exec(source);
    if (set) {
      this.autocheckpoint = Number(set[1]);
      return [];
    }
    if (source === 'wal_checkpoint(PASSIVE)') {
      this.now += (this.now - this.lastCheckpoint) / 4;
      this.lastCheckpoint = this.now;
      this.checkpoints.push(this.now);
      return [];
    }
    throw new Error(`unexpected pragma ${source}`);
  }
}

function pacerOn(db: FakeConnection, budgetMs = 50): CheckpointPacer {
  const pacer = CheckpointPacer.open(db as unknown as BetterSqlite3.Database, budgetMs, () => db.now);
  if (!pacer) throw new Error('no pacer');
  return pacer;
}

describe('SQLite checkpoint pacer', () => {
  test('checkpoints that grow with the wait do not push the next one ever further: at most a second apart', () => {
    const db = new FakeConnection();
    const pacer = pacerOn(db);
    expect(db.autocheckpoint).toBe(0);
    for (let batch = 0; batch < 2000; batch++) {
      db.now += 25;
      pacer.betweenBatches(false);
    }
    expect(db.checkpoints.length).toBeGreaterThan(10);
    const gaps = db.checkpoints.slice(1).map((at, i) => at - (db.checkpoints[i] as number));
    // A second of waiting plus one batch, plus the checkpoint's own time (a quarter of the wait).
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual((1000 + 25) * 1.25);
    pacer.finish();
    expect(db.autocheckpoint).toBe(1000);
  });

  test('the last batch gets a checkpoint when the purge ran one, none when it was too short for one', () => {
    const short = new FakeConnection();
    const quick = pacerOn(short);
    short.now += 25;
    expect(quick.betweenBatches(true)).toBe(false);
    const long = new FakeConnection();
    const slow = pacerOn(long);
    long.now += 600;
    expect(slow.betweenBatches(false)).toBe(true);
    long.now += 25;
    expect(slow.betweenBatches(false)).toBe(false);
    expect(slow.betweenBatches(true)).toBe(true);
  });

  test('finish on a busy connection puts the setting back once it is free, not over one set since', async () => {
    const db = new FakeConnection();
    pacerOn(db).finish();
    expect(db.autocheckpoint).toBe(1000);

    const later = new FakeConnection();
    const pacer = pacerOn(later);
    later.busy = true;
    pacer.finish();
    later.busy = false;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(later.autocheckpoint).toBe(1000);

    const changed = new FakeConnection();
    const other = pacerOn(changed);
    changed.busy = true;
    other.finish();
    changed.busy = false;
    changed.autocheckpoint = 5;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(changed.autocheckpoint).toBe(5);
  });

  test('a driver failure is a LifespanError, not the raw error', () => {
    const db = new FakeConnection();
    const pacer = pacerOn(db);
    db.now += 600;
    db.failing = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_FSYNC' });
    expect(() => pacer.betweenBatches(false)).toThrow(LifespanError);
    const fresh = new FakeConnection();
    fresh.failing = new Error('database disk image is malformed');
    expect(() => pacerOn(fresh)).toThrow(LifespanError);
  });
});
