/** The purge's batch sizer: batches sized by a time budget (no database). */
import { BatchSizer } from '../../src/providers/relational/purge/pacing';

/** A batch that used all of its size, and one that found less to delete; both deleted rows. */
const FULL = { full: true, rows: 100 };
const SHORT = { full: false, rows: 100 };

describe('purge batches sized by time', () => {
  test('a batch grows while full batches take under half the budget, never past the cap', () => {
    const sizer = new BatchSizer(50, 512, 4096);
    const sizes = [sizer.size];
    for (let i = 0; i < 5; i++) {
      sizer.record(10, FULL);
      sizes.push(sizer.size);
    }
    expect(sizes).toEqual([512, 1024, 2048, 4096, 4096, 4096]);
  });

  test('a short batch (the table ran out) or one near the budget does not grow it', () => {
    const sizer = new BatchSizer(50, 512, 65536);
    sizer.record(5, SHORT);
    sizer.record(30, FULL);
    expect(sizer.size).toBe(512);
  });

  test('a batch over the budget shrinks the next to what fits it, in powers of two, at least 1', () => {
    const sizer = new BatchSizer(50, 4096, 65536);
    sizer.record(150, FULL); // 4096 * 50 / 150 = 1365 → 1024
    expect(sizer.size).toBe(1024);
    sizer.record(100_000, FULL);
    expect(sizer.size).toBe(1);
  });

  test('a size that went over the budget is not grown back into until 8 batches in a row kept to it', () => {
    const sizer = new BatchSizer(50, 1024, 65536);
    sizer.record(10, FULL); // → 2048
    sizer.record(80, FULL); // over: ceiling 2048, → 1024
    const sizes: number[] = [];
    for (let i = 0; i < 9; i++) {
      sizer.record(10, FULL);
      sizes.push(sizer.size);
    }
    expect(sizes).toEqual([1024, 1024, 1024, 1024, 1024, 1024, 1024, 2048, 4096]);
  });

  test('a batch far under the budget grows toward half of it, at most 4 times (a small table needs few batches)', () => {
    const sizer = new BatchSizer(50, 1024, 65536);
    sizer.record(4, FULL); // 25 ms / 4 ms = 6.25 → ×4
    expect(sizer.size).toBe(4096);
    sizer.record(1, FULL); // 25 ms / 1 ms, but never more than ×4
    expect(sizer.size).toBe(16384);
    const fresh = new BatchSizer(50, 16384, 65536);
    fresh.record(9, FULL); // 25 / 9 → ×2
    expect(fresh.size).toBe(32768);
  });

  test('a batch is not grown when the grown one would take over half the budget', () => {
    // 20 ms doubled is 40 ms: a batch meeting rows twice as dear would then go over the budget.
    const sizer = new BatchSizer(50, 1024, 65536);
    sizer.record(20, FULL);
    expect(sizer.size).toBe(1024);
    sizer.record(12, FULL); // 12 ms doubled keeps to half the budget
    expect(sizer.size).toBe(2048);
  });

  test('a steep rise of the cost per row shrinks the next batch before one goes over the budget', () => {
    // The bench's purge of 2,000,000 rows: 32,768 rows took 23 ms mid-table and 55 ms where the
    // text keys' short values sit scattered, then rows cost twice that again.
    const sizer = new BatchSizer(50, 32768, 65536);
    sizer.record(20, FULL);
    expect(sizer.size).toBe(32768);
    sizer.record(40, FULL); // ×2 the cost per row: sized for ×2 again, 25 ms / (40 ms × 2) of 32,768 → 8,192
    expect(sizer.size).toBe(8192);
    sizer.record(5, FULL); // rows as cheap as before the rise: it grows back (25 / 5 → ×4)
    expect(sizer.size).toBe(32768);
  });

  test('a rise spread over a few batches counts as a whole', () => {
    const sizer = new BatchSizer(50, 32768, 65536);
    sizer.record(22, FULL);
    sizer.record(29, FULL); // ×1.3
    expect(sizer.size).toBe(32768);
    sizer.record(40, FULL); // ×1.4 on the last, ×1.8 on the cheapest of the recent: 25 / (40 × 1.8) of 32,768 → 8,192
    expect(sizer.size).toBe(8192);
  });

  test('a small rise of the cost per row, or a short batch, changes nothing', () => {
    const sizer = new BatchSizer(50, 32768, 65536);
    sizer.record(20, FULL);
    sizer.record(28, FULL); // ×1.4
    expect(sizer.size).toBe(32768);
    sizer.record(45, SHORT); // the table's last rows: says nothing of the next batch
    expect(sizer.size).toBe(32768);
  });

  test('the first batch is no larger than the cap', () => {
    expect(new BatchSizer(50, 512, 3).size).toBe(3);
  });

  test('a purge remembers the last size that deleted rows within the budget, not one grown past it', () => {
    const sizer = new BatchSizer(50, 64, 1 << 20);
    expect(sizer.proven).toBeUndefined();
    sizer.record(10, FULL); // 64 worked → 256
    expect(sizer.proven).toBe(64);
    // Ranges with nothing due (a block walk past the due rows) are fast and grow the size, but prove nothing.
    for (let i = 0; i < 6; i++) sizer.record(1, { full: true, rows: 0 });
    expect(sizer.size).toBeGreaterThan(64 * 1000);
    expect(sizer.proven).toBe(64);
    sizer.record(200, FULL); // over the budget: the size that fits it is what is proven
    expect(sizer.proven).toBe(sizer.size);
  });
});
