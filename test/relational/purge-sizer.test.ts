/** The purge's batch sizer: batches sized by a time budget (no database). */
import { BatchSizer } from '../../src/providers/relational/purge/pacing';

/** A batch of rows that used all of its size, and one that found less to delete. */
const full = (rows: number) => ({ full: true, rows });
const SHORT = { full: false, rows: 100 };

/** Records a batch of the sizer's current size, as many rows as its size. */
function batch(sizer: BatchSizer, ms: number): number {
  sizer.record(ms, full(sizer.size));
  return sizer.size;
}

describe('purge batches sized by time', () => {
  test('a batch grows while the grown one keeps to half the budget, never past the cap', () => {
    // Every size takes 10 ms: no difference between sizes to go by (noise, for all the sizer
    // knows), so a unit is taken to cost 10 ms / size: doubled while 20 ms keeps to half the budget.
    const sizer = new BatchSizer(50, 512, 4096);
    const sizes = [sizer.size];
    for (let i = 0; i < 5; i++) sizes.push(batch(sizer, 10));
    expect(sizes).toEqual([512, 1024, 2048, 4096, 4096, 4096]);
  });

  test('a short batch (the table ran out) or one past half the budget does not grow it', () => {
    const sizer = new BatchSizer(50, 512, 65536);
    sizer.record(5, SHORT);
    batch(sizer, 30);
    expect(sizer.size).toBe(512);
  });

  test('a batch over the budget shrinks the next to what fits it, in powers of two, at least 1', () => {
    const sizer = new BatchSizer(50, 4096, 65536);
    batch(sizer, 150); // 4096 * 50 / 150 = 1365 → 1024
    expect(sizer.size).toBe(1024);
    batch(sizer, 100_000);
    expect(sizer.size).toBe(1);
  });

  test('a size that went over the budget is not grown back into until 8 batches in a row kept to it', () => {
    const sizer = new BatchSizer(50, 1024, 65536);
    batch(sizer, 10); // → 2048
    batch(sizer, 80); // over: ceiling 2048, → 1024
    const sizes: number[] = [];
    for (let i = 0; i < 9; i++) sizes.push(batch(sizer, 10));
    expect(sizes).toEqual([1024, 1024, 1024, 1024, 1024, 1024, 1024, 2048, 4096]);
  });

  test('a batch far under the budget grows toward half of it, at most 4 times (a small table needs few batches)', () => {
    const sizer = new BatchSizer(50, 1024, 65536);
    expect(batch(sizer, 4)).toBe(4096); // 4 ms × 4 keeps to 25 ms
    expect(batch(sizer, 1)).toBe(16384); // never more than ×4
    const fresh = new BatchSizer(50, 16384, 65536);
    expect(batch(fresh, 9)).toBe(32768); // 9 ms × 2 keeps to 25 ms, × 4 would not
  });

  test('a batch is not grown when the grown one would take over half the budget', () => {
    // 5 ms at 1,024 rows, 20 ms at 4,096: a row adds about 0.005 ms, 8,192 rows would take 40 ms.
    const sizer = new BatchSizer(50, 1024, 65536);
    expect(batch(sizer, 5)).toBe(4096);
    expect(batch(sizer, 20)).toBe(4096);
  });

  test('a batch whose time is mostly fixed (a commit, round trips) grows though it took over a quarter of the budget', () => {
    // 13 ms + 0.0001 ms a unit: doubling in proportion would pass 25 ms, but a unit costs next to nothing.
    const sizer = new BatchSizer(50, 512, 1 << 20);
    const sizes = [sizer.size];
    for (let i = 0; i < 6; i++) sizes.push(batch(sizer, 13 + 0.0001 * sizer.size));
    expect(sizes).toEqual([512, 256, 1024, 4096, 16384, 65536, 65536]); // 19.5 ms at 65,536: doubled, 26
  });

  test('after one slow batch, a batch with a fixed cost recovers its size (no spiral down)', () => {
    // 3 ms + 0.0001 ms a row on a 10 ms budget, one batch of 40 ms (a lock wait) on the way.
    const sizer = new BatchSizer(10, 512, 1 << 20);
    for (let i = 0; i < 30; i++) batch(sizer, i === 4 ? 40 : 3 + 0.0001 * sizer.size);
    expect(sizer.size).toBeGreaterThanOrEqual(4096);
  });

  test("a block walk's ranges grow past their fixed cost (round trips), whatever their rows", () => {
    // 14 ms of round trips + 0.001 ms a block; a range deletes some of its blocks' rows.
    const sizer = new BatchSizer(50, 64, 1 << 20);
    for (let i = 0; i < 12; i++) sizer.record(14 + 0.001 * sizer.size, full(i % 3 === 0 ? 5 : 900));
    expect(sizer.size).toBeGreaterThanOrEqual(8192);
  });

  test('the first batch is no larger than the cap', () => {
    expect(new BatchSizer(50, 512, 3).size).toBe(3);
  });

  test('a purge remembers the last size that deleted rows within the budget, not one grown past it', () => {
    const sizer = new BatchSizer(50, 64, 1 << 20);
    expect(sizer.proven).toBeUndefined();
    batch(sizer, 5); // 64 worked → 256
    expect(sizer.proven).toBe(64);
    // Ranges with nothing due (a block walk past the due rows) are fast and grow the size, but prove nothing.
    for (let i = 0; i < 6; i++) sizer.record(1, { full: true, rows: 0 });
    expect(sizer.size).toBeGreaterThan(64 * 1000);
    expect(sizer.proven).toBe(64);
    sizer.record(200, full(sizer.size)); // over the budget: the size that fits it is what is proven
    expect(sizer.proven).toBe(sizer.size);
  });

  test('a steep rise of the cost per row shrinks the next batch before one goes over the budget', () => {
    // The bench's purge of 2,000,000 rows: 32,768 rows took 23 ms mid-table and 55 ms where the
    // text keys' short values sit scattered, then rows cost twice that again.
    const sizer = new BatchSizer(50, 16384, 65536);
    expect(batch(sizer, 10)).toBe(32768);
    expect(batch(sizer, 20)).toBe(32768); // 40 ms at 65,536: not grown
    // ×2 the cost per row: sized for ×2 again, 25 ms / (40 ms × 2) of 32,768 → 8,192
    expect(batch(sizer, 40)).toBe(8192);
    expect(batch(sizer, 5)).toBe(32768); // rows as cheap as before the rise: it grows back
  });

  test('a rise spread over a few batches of one size counts as a whole', () => {
    const sizer = new BatchSizer(50, 16384, 65536);
    batch(sizer, 10);
    batch(sizer, 22);
    expect(batch(sizer, 29)).toBe(32768); // ×1.3
    // ×1.4 on the last, ×1.8 on the median of the recent (22): 25 / (40 × 1.8) of 32,768 → 8,192
    expect(batch(sizer, 40)).toBe(8192);
  });

  test('one batch of ordinary noise (±30 %) is no steep rise', () => {
    const sizer = new BatchSizer(50, 65536, 65536);
    for (const ms of [42.9, 27.2, 29.0, 30.2, 40.9]) batch(sizer, ms);
    expect(sizer.size).toBe(65536);
  });

  test('a small rise of the cost per row, a short batch, or a range of heap blocks changes nothing', () => {
    const sizer = new BatchSizer(50, 16384, 65536);
    batch(sizer, 10);
    batch(sizer, 20);
    expect(batch(sizer, 28)).toBe(32768); // ×1.4
    sizer.record(45, SHORT); // the table's last rows: says nothing of the next batch
    expect(sizer.size).toBe(32768);
    // A block walk's range of few due rows, then one of many: its cost per block, not per row.
    const blocks = new BatchSizer(50, 1024, 65536);
    blocks.record(2, full(3));
    expect(blocks.size).toBe(4096);
    blocks.record(20, full(40_000));
    expect(blocks.size).toBe(4096);
  });
});
