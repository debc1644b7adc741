import type { Container } from '@azure/cosmos';
import { driverCall } from './driver-errors';
import { expiredFilter, type ContainerTtl } from './item-expiry';

/**
 * Items a DefaultTimeToLive change from `from` to `to` makes expire at once: due under the new
 * setting and not already due under the old one. One COUNT query at `nowSeconds` of the server clock.
 */
export async function countExpiringAtOnce(
  container: Container,
  from: ContainerTtl,
  to: ContainerTtl,
  nowSeconds: number,
): Promise<number> {
  const due = expiredFilter(to, nowSeconds);
  if (!due) return 0;
  const before = expiredFilter(from, nowSeconds, 'Old');
  const sql = `SELECT VALUE COUNT(1) FROM c WHERE ${due.sql}${before ? ` AND NOT ${before.sql}` : ''}`;
  const parameters = new Map([...due.parameters, ...(before?.parameters ?? [])].map((p) => [p.name, p.value]));
  const { resources } = await driverCall(`counting items of '${container.id}'`, {}, () =>
    container.items
      .query<number>({ query: sql, parameters: [...parameters].map(([name, value]) => ({ name, value })) })
      .fetchAll(),
  );
  return resources.reduce((sum, n) => sum + n, 0);
}
