/**
 * The lock_timeout a PostgreSQL block-walk batch sets for itself: the least of the purge's budget
 * and half of deadlock_timeout, at least 1 ms, with deadlock_timeout read from its text form
 * (current_setting: '1s', '1min', …) rather than the pg_settings view.
 */
import type { Knex } from 'knex';
import { lockTimeout } from '../../src/providers/relational/families/postgres/block-walk';
import { knexFor } from '../harness/relational';
import { describeStore } from '../harness/stores';

describeStore('postgres', 'PostgreSQL block walk: the lock_timeout of a batch', () => {
  let knex: Knex;
  beforeAll(() => {
    knex = knexFor('postgres', { pool: { min: 1, max: 1 } });
  });
  afterAll(async () => {
    await knex?.destroy();
  });

  test.each([
    ['1s', 50, '50ms'],
    ['1s', 10_000, '500ms'],
    ['3s', 10_000, '1500ms'],
    ['1min', 60_000, '30s'],
    ['2h', 50, '50ms'],
    ['2h', 10_000_000, '1h'],
    ['1d', 100_000_000, '12h'],
    ['1ms', 50, '1ms'],
  ])('deadlock_timeout %s, a %d ms budget: lock_timeout %s', async (deadlock, budgetMs, expected) => {
    await knex.transaction(async (trx) => {
      await trx.raw(`SET LOCAL deadlock_timeout = '${deadlock}'`);
      await trx.raw(lockTimeout(budgetMs));
      const shown = await trx.raw('SHOW lock_timeout');
      expect(shown.rows[0].lock_timeout).toBe(expected);
    });
  });
});
