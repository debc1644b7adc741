/**
 * How many per-record requests one deleteMany() batch keeps in flight: far under a driver's
 * in-flight limit per connection (2,048 by default for the CQL driver) and small enough that a
 * throttled account slows the batch down rather than failing most of it.
 */
export const MAX_IN_FLIGHT = 32;

/**
 * `work` over every item with at most `limit` calls running at once, results in item order. The
 * first failure stops new calls from starting and is thrown once the running ones have settled,
 * so no call is still writing after the caller has seen the error.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
  limit: number = MAX_IN_FLIGHT,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

/** The sum of `work` over every item, at most `limit` at once (deleteMany's count of one batch). */
export async function sumBounded<T>(
  items: readonly T[],
  work: (item: T) => Promise<number>,
  limit: number = MAX_IN_FLIGHT,
): Promise<number> {
  const counts = await mapBounded(items, work, limit);
  return counts.reduce((sum, n) => sum + n, 0);
}
