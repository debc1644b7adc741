/** Smoke test of the harness PostgreSQL database through knex: server-side now() + interval. */
import type { Knex } from 'knex';
import { knexFor } from '../harness/relational';
import { describeStore } from '../harness/stores';

describeStore('postgres', 'postgres smoke', () => {
  let db: Knex;

  beforeAll(() => {
    db = knexFor('postgres');
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it('is connected to this run’s fresh database', async () => {
    const { rows } = await db.raw<{ rows: Array<{ name: string }> }>('SELECT current_database() AS name');
    expect(rows[0]?.name).toMatch(/^lifespan_test_\d+_\d+$/);
  });

  it('computes now() + interval on the server', async () => {
    const { rows } = await db.raw<{ rows: Array<{ later: Date; now: Date }> }>(
      'SELECT now() + make_interval(secs => ?) AS later, now() AS now',
      [90],
    );
    const row = rows[0];
    expect(row?.later).toBeInstanceOf(Date);
    expect((row?.later.getTime() ?? 0) - (row?.now.getTime() ?? 0)).toBe(90_000);
  });
});
