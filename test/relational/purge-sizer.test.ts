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
    sizer.record(0.1, FULL); // never more than ×4
    expect(sizer.size).toBe(16384);
    sizer.record(9, FULL); // 25 / 9 → ×2
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
