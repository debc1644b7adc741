/**
 * What a PostgreSQL block-walk purge sends: on a table this small the round trips, not the rows,
 * are most of its time. Counted at the driver (every message a pg client sends), not timed.
 */
import type { Knex } from 'knex';
import { ModelBuilder } from '../../src';
import { describeEngines, prefixFor, TestClock, useEmulatedStore } from './support/engines';
import { openSession } from './support/sessions';

class Lease {
  id = '';
  owner = '';
}

/** Enough due rows for the block walk (it needs at least 4,096 due, and as many as the table has blocks). */
const DUE = 6_000;

describeEngines('relational purgeExpired: messages sent', (engine) => {
  const table = `${prefixFor('purgemsg')}_leases`;
  const model = new ModelBuilder()
    .entity(Lease, (e) =>
      e
        .toCollection(table)
        .key((x) => x.id)
        .field((x) => x.owner)
        .timeToLive(10, { perWrite: true }),
    )
    .build();
  const clock = new TestClock();
  const pgOnly = engine === 'postgres' ? test : test.skip;
  let knex: Knex;
  useEmulatedStore(engine, model, (suite) => ({ knex } = suite), { clock: clock.read });

  pgOnly(
    'a block-walk batch is one message, and a walk that skipped no row sends no count of locked rows',
    async () => {
      const now = clock.read().toISOString();
      // Every other row due, so the due rows are spread over all of the table's blocks.
      await knex.raw(
        `INSERT INTO ${table} (id, owner, expires_at)
       SELECT 'r' || i, 'o', CAST(? AS timestamptz) + CASE WHEN i % 2 = 0 THEN -1 ELSE 1 END * interval '1 hour'
       FROM generate_series(1, ${2 * DUE}) AS i`,
        [now],
      );
      const session = await openSession(model, knex, clock);
      // Every connection of the pool is a pg Client: spy on what they all share.
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
      let batches = 0;
      try {
        const result = await session.purgeExpired({ batchBudgetMs: 10_000 }, { afterBatch: () => void batches++ });
        expect(result).toMatchObject({ deleted: DUE, skipped: 0 });
      } finally {
        spy.mockRestore();
        await session.close();
      }
      expect(batches).toBeGreaterThan(0);
      // One message a batch, plus the table's size with its due count before the walk and the size
      // again at its end (rows written meanwhile may have grown the table).
      expect(sent.length).toBeLessThanOrEqual(batches + 2);
      expect(sent.filter((text) => /SKIP LOCKED/.test(text))).toEqual([]);
    },
  );
});
