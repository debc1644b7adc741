/** deleteMany's per-record requests run with a bounded number in flight (issue 26 review). */
import { mapBounded, MAX_IN_FLIGHT, sumBounded } from '../../src/runtime/bounded';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mapBounded', () => {
  test('never runs more than the limit at once, and keeps item order', async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 500 }, (_, i) => i);
    const out = await mapBounded(items, async (n) => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
      return n * 2;
    });
    expect(most).toBe(MAX_IN_FLIGHT);
    expect(out).toEqual(items.map((n) => n * 2));
  });

  test('the first failure stops new calls and is thrown after the running ones settle', async () => {
    let started = 0;
    let running = 0;
    const call = mapBounded(
      Array.from({ length: 100 }, (_, i) => i),
      async (n) => {
        started++;
        running++;
        await tick();
        running--;
        if (n === 3) throw new Error('refused');
        return n;
      },
      4,
    );
    await expect(call).rejects.toThrow('refused');
    expect(running).toBe(0);
    expect(started).toBeLessThan(10);
  });

  test('sumBounded adds the counts; an empty batch is 0', async () => {
    expect(await sumBounded([1, 0, 1, 1], async (n) => n)).toBe(3);
    expect(await sumBounded([], async () => 1)).toBe(0);
  });
});
