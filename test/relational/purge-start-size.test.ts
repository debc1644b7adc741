/**
 * A purge job runs every minute on the same session: each purge of a table starts at the batch
 * size the previous one settled on (same budget and cap), not at the family's cautious first size
 * again. Counted in batches (a budget no batch comes near: every batch grows the next), not timed.
 */
import type { Knex } from 'knex';
import { Lease, leaseModel } from './support/block-walk';
import { describeEngines, prefixFor, TestClock, useEmulatedStore } from './support/engines';
import { openSession } from './support/sessions';
import type { RelationalSession } from '../../src/providers/relational';

const ROWS = 6_000;
const BUDGET = { batchBudgetMs: 10_000 };

describeEngines('relational purgeExpired: where the next purge starts', (engine) => {
  const table = `${prefixFor('purgestart')}_leases`;
  const model = leaseModel(table);
  const clock = new TestClock();
  let knex: Knex;
  useEmulatedStore(engine, model, (suite) => ({ knex } = suite), { clock: clock.read });
  // PostgreSQL's purge walks heap blocks (families/postgres/block-walk.ts): its batches follow the
  // table's layout, which a second seeding changes, so batch counts do not compare there.
  const rowSized = engine === 'postgres' ? test.skip : test;
  const blockWalk = engine === 'postgres' ? test : test.skip;

  async function seedDue(session: RelationalSession, from: number): Promise<void> {
    const uow = session.unitOfWork();
    for (let i = from; i < from + ROWS; i++)
      uow.insert(Object.assign(new Lease(), { id: `r${i}`, owner: 'o' }), { ttl: 1 });
    await uow.commit();
    clock.advance(3600);
  }

  async function batchesOfPurge(session: RelationalSession, options: object = BUDGET): Promise<number[]> {
    const rows: number[] = [];
    const result = await session.purgeExpired(options, { afterBatch: (_table, n) => void rows.push(n) });
    expect(result.deleted).toBe(ROWS);
    return rows.filter((n) => n > 0);
  }

  rowSized('the second purge of a table starts at the size the first settled on, in fewer batches', async () => {
    const session = await openSession(model, knex, clock);
    try {
      await seedDue(session, 0);
      const first = await batchesOfPurge(session);
      await seedDue(session, ROWS);
      const second = await batchesOfPurge(session);
      expect(first.length).toBeGreaterThan(1);
      expect(second.length).toBeLessThan(first.length);
      expect(second[0]).toBeGreaterThan(first[0] as number);
    } finally {
      await session.close();
    }
  });

  rowSized('another budget, or another session, starts at the first size again', async () => {
    const session = await openSession(model, knex, clock);
    const other = await openSession(model, knex, clock);
    try {
      await seedDue(session, 2 * ROWS);
      const first = await batchesOfPurge(session);
      await seedDue(session, 3 * ROWS);
      expect(await batchesOfPurge(session, { batchBudgetMs: 9_000 })).toEqual(first);
      await seedDue(session, 4 * ROWS);
      expect(await batchesOfPurge(other)).toEqual(first);
    } finally {
      await session.close();
      await other.close();
    }
  });

  blockWalk(
    'ranges past the due rows grow the walk, but the next purge starts at a size that deleted rows',
    async () => {
      // 60,000 rows in physical order, the first 8,000 due: the first range takes them all, the
      // ranges after it find nothing due and grow 4× each. The next purge, with every row due, must
      // not start at that grown size (one transaction deleting the whole table).
      const seed = async (dueRows: number) => {
        await knex(table).delete();
        await knex.raw(`VACUUM ${table}`);
        await knex.raw(
          `INSERT INTO ${table} (id, owner, expires_at)
         SELECT 'r' || i, 'o', CAST(? AS timestamptz) + CASE WHEN i <= ? THEN interval '-1 hour' ELSE interval '1 hour' END
         FROM generate_series(1, 60000) AS i`,
          [clock.read().toISOString(), dueRows],
        );
      };
      const session = await openSession(model, knex, clock);
      try {
        await seed(8_000);
        const first: number[] = [];
        await session.purgeExpired(BUDGET, { afterBatch: (_table, n) => void first.push(n) });
        expect(first.length).toBeGreaterThan(2);
        await seed(60_000);
        const second: number[] = [];
        const result = await session.purgeExpired(BUDGET, { afterBatch: (_table, n) => void second.push(n) });
        expect(result.deleted).toBe(60_000);
        // It starts where the first purge's deleting range did (64 blocks: about 11,000 rows here).
        expect(second.length).toBeGreaterThan(2);
        expect(second[0]).toBeLessThan(30_000);
      } finally {
        await session.close();
      }
    },
  );
});
