/** The purge's batch sizer: batches sized by a time budget (no database). */
import { BatchSizer } from '../../src/providers/relational/purge/pacing';

describe('purge batches sized by time', () => {
  test('a batch grows while full batches take under half the budget, never past the cap', () => {
    const sizer = new BatchSizer(50, 512, 4096);
    const sizes = [sizer.size];
    for (let i = 0; i < 5; i++) {
      sizer.record(10, true);
      sizes.push(sizer.size);
    }
    expect(sizes).toEqual([512, 1024, 2048, 4096, 4096, 4096]);
  });

  test('a short batch (the table ran out) or one near the budget does not grow it', () => {
    const sizer = new BatchSizer(50, 512, 65536);
    sizer.record(5, false);
    sizer.record(30, true);
    expect(sizer.size).toBe(512);
  });

  test('a batch over the budget shrinks the next to what fits it, in powers of two, at least 1', () => {
    const sizer = new BatchSizer(50, 4096, 65536);
    sizer.record(150, true); // 4096 * 50 / 150 = 1365 → 1024
    expect(sizer.size).toBe(1024);
    sizer.record(100_000, true);
    expect(sizer.size).toBe(1);
  });

  test('a size that went over the budget is not grown back into until 8 batches in a row kept to it', () => {
    const sizer = new BatchSizer(50, 1024, 65536);
    sizer.record(10, true); // → 2048
    sizer.record(80, true); // over: ceiling 2048, → 1024
    const sizes: number[] = [];
    for (let i = 0; i < 9; i++) {
      sizer.record(10, true);
      sizes.push(sizer.size);
    }
    expect(sizes).toEqual([1024, 1024, 1024, 1024, 1024, 1024, 1024, 2048, 4096]);
  });

  test('a batch far under the budget grows toward half of it, at most 4 times (a small table needs few batches)', () => {
    const sizer = new BatchSizer(50, 1024, 65536);
    sizer.record(4, true); // 25 ms / 4 ms = 6.25 → ×4
    expect(sizer.size).toBe(4096);
    sizer.record(0.1, true); // never more than ×4
    expect(sizer.size).toBe(16384);
    sizer.record(9, true); // 25 / 9 → ×2
    expect(sizer.size).toBe(32768);
  });

  test('the first batch is no larger than the cap', () => {
    expect(new BatchSizer(50, 512, 3).size).toBe(3);
  });
});
