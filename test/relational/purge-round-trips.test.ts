/**
 * What a PostgreSQL block-walk purge sends: on a table this small the round trips, not the rows,
 * are most of its time. Counted at the driver (every message a pg client sends), not timed.
 */
import type { Knex } from 'knex';
import { DUE, leaseModel, recordPgMessages, seedLeases } from './support/block-walk';
import { describeEngines, prefixFor, TestClock, useEmulatedStore } from './support/engines';
import { openSession } from './support/sessions';

describeEngines('relational purgeExpired: messages sent', (engine) => {
  const table = `${prefixFor('purgemsg')}_leases`;
  const model = leaseModel(table);
  const clock = new TestClock();
  const pgOnly = engine === 'postgres' ? test : test.skip;
  let knex: Knex;
  useEmulatedStore(engine, model, (suite) => ({ knex } = suite), { clock: clock.read });

  pgOnly(
    'a block-walk batch is one message, and a walk that skipped no row sends no count of locked rows',
    async () => {
      await seedLeases(knex, table, 2 * DUE, clock.read());
      const session = await openSession(model, knex, clock);
      const { sent, restore } = await recordPgMessages(knex);
      let batches = 0;
      try {
        const result = await session.purgeExpired({ batchBudgetMs: 10_000 }, { afterBatch: () => void batches++ });
        expect(result).toMatchObject({ deleted: DUE, skipped: 0 });
      } finally {
        restore();
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
