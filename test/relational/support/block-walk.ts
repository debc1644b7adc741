/**
 * What the PostgreSQL block-walk suites share: a table of leases with the due rows spread over all
 * of its blocks, and a record of the text of every message the pg clients of a knex send.
 */
import type { Knex } from 'knex';
import { ModelBuilder, type Model } from '../../../src';

export class Lease {
  id = '';
  owner = '';
}

/** Enough due rows for the block walk (at least 4,096 due, and as many as the table has blocks). */
export const DUE = 6_000;

export function leaseModel(table: string): Model {
  return new ModelBuilder()
    .entity(Lease, (e) =>
      e
        .toCollection(table)
        .key((x) => x.id)
        .field((x) => x.owner)
        .timeToLive(10, { perWrite: true }),
    )
    .build();
}

/** Rows r1..r<rows>, every even one due at `now` (an hour ago), the odd ones due in an hour. */
export async function seedLeases(knex: Knex, table: string, rows: number, now: Date): Promise<void> {
  await knex.raw(
    `INSERT INTO ${table} (id, owner, expires_at)
     SELECT 'r' || i, 'o', CAST(? AS timestamptz) + CASE WHEN i % 2 = 0 THEN -1 ELSE 1 END * interval '1 hour'
     FROM generate_series(1, ${rows}) AS i`,
    [now.toISOString()],
  );
}

/** Records the text of every message a pg client sends (every connection of the pool is one: the spy sits on their prototype). */
export async function recordPgMessages(knex: Knex): Promise<{ sent: string[]; restore: () => void }> {
  const connection = await knex.client.acquireConnection();
  await knex.client.releaseConnection(connection);
  const client = Object.getPrototypeOf(connection) as { query: (...args: unknown[]) => unknown };
  const sent: string[] = [];
  const query = client.query;
  const spy = jest.spyOn(client, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { text: string };
    sent.push(typeof config === 'string' ? config : config.text);
    return query.apply(this, args);
  });
  return { sent, restore: () => spy.mockRestore() };
}
