/**
 * PostgreSQL's block walk when a writer holds a due row: the range's one-message batch (BEGIN,
 * SET LOCAL lock_timeout, DELETE, COMMIT) fails on the lock timeout and is rolled back, and the
 * range is taken again past the locked rows. What that leaves on the pooled connection, and how
 * the rows left behind are counted.
 */
import type { Knex } from 'knex';
import type { RelationalSession } from '../../src/providers/relational';
import { knexFor } from '../harness/relational';
import { describeStore } from '../harness/stores';
import { DUE, leaseModel, recordPgMessages, seedLeases } from './support/block-walk';
import { dropTables, prefixFor, TestClock } from './support/engines';
import { openSession } from './support/sessions';

/** The session's own lock_timeout on the purge's connection, which the batch's SET LOCAL must not outlive. */
const SESSION_LOCK_TIMEOUT = '7s';

type PgConnection = { query: (sql: string, cb: (e: unknown) => void) => void };

describeStore('postgres', 'PostgreSQL block walk past a locked due row', () => {
  const table = `${prefixFor('purgefallback')}_leases`;
  const model = leaseModel(table);
  const clock = new TestClock();
  let knex: Knex;
  let holder: Knex;
  /** One connection, so the purge's and the checks' statements all meet the same one. */
  let single: Knex;
  let session: RelationalSession;

  beforeAll(async () => {
    knex = knexFor('postgres');
    holder = knexFor('postgres');
    single = knexFor('postgres', {
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn: PgConnection, done: (e: unknown, c: unknown) => void) =>
          conn.query(`SET lock_timeout = '${SESSION_LOCK_TIMEOUT}'`, (e) => done(e, conn)),
      },
    });
    await dropTables(knex, model);
    const setup = await openSession(model, knex, clock);
    await setup.ensureCollections();
    await setup.close();
    session = await openSession(model, single, clock);
  });

  afterAll(async () => {
    await session?.close();
    await dropTables(knex, model);
    await Promise.all([knex?.destroy(), holder?.destroy(), single?.destroy()]);
  });

  beforeEach(async () => {
    await knex(table).delete();
  });

  const seed = (rows: number) => seedLeases(knex, table, rows, clock.read());

  /** Runs `work` while another transaction holds the rows `where` selects locked. */
  async function whileLocked<T>(where: string, work: () => Promise<T>): Promise<T> {
    const trx = await holder.transaction();
    try {
      await trx.raw(`SELECT id FROM ${table} WHERE ${where} FOR UPDATE`);
      return await work();
    } finally {
      await trx.rollback();
    }
  }

  test('the connection goes back to the pool with no transaction open and its own lock_timeout', async () => {
    await seed(2 * DUE);
    const result = await whileLocked("id = 'r2'", () => session.purgeExpired({ batchBudgetMs: 100 }));
    // Only a range taken past a lock counts skipped rows on the block walk: the fallback ran.
    expect(result).toMatchObject({ deleted: DUE - 1, skipped: 1 });
    const shown = await single.raw('SHOW lock_timeout');
    expect(shown.rows[0].lock_timeout).toBe(SESSION_LOCK_TIMEOUT);
    // Outside a transaction each statement is its own: it started when its transaction did.
    const state = await single.raw(
      `SELECT pg_current_xact_id_if_assigned() AS xid,
              (SELECT xact_start = query_start FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS own`,
    );
    expect(state.rows[0]).toEqual({ xid: null, own: true });
  });

  test('consecutive ranges taken past locked rows are counted with one statement', async () => {
    const { sent, restore } = await recordPgMessages(single);
    // Six times the blocks of the first range (64), every due row locked: every range falls back.
    // More than the first range plus a second one grown 4× (purge/pacing.ts MAX_GROWTH), so a quick
    // first batch still leaves at least two ranges.
    await seed(12 * DUE);
    try {
      const result = await whileLocked(`expires_at <= '${clock.read().toISOString()}'`, () =>
        session.purgeExpired({ batchBudgetMs: 20 }),
      );
      expect(result).toMatchObject({ deleted: 0, skipped: 6 * DUE });
    } finally {
      restore();
    }
    const fallbacks = sent.filter((text) => /^DELETE .*SKIP LOCKED/s.test(text));
    const counts = sent.filter((text) => /count\(\*\).*SKIP LOCKED/s.test(text));
    expect(fallbacks.length).toBeGreaterThanOrEqual(2);
    expect(counts).toHaveLength(1);
  });
});
