/** Smoke test of the harness MariaDB database through knex: server-side NOW() + INTERVAL. */
import type { Knex } from 'knex';
import { knexFor } from '../harness/relational';
import { describeStore } from '../harness/stores';

describeStore('mariadb', 'mariadb smoke', () => {
  let db: Knex;

  beforeAll(() => {
    db = knexFor('mariadb');
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it('is connected to this run’s fresh database', async () => {
    const [rows] = await db.raw<[Array<{ name: string; version: string }>, unknown]>(
      'SELECT DATABASE() AS name, VERSION() AS version',
    );
    expect(rows[0]?.name).toMatch(/^lifespan_test_\d+_\d+$/);
    expect(rows[0]?.version).toMatch(/MariaDB/);
  });

  it('computes NOW() + INTERVAL n SECOND on the server', async () => {
    const [rows] = await db.raw<[Array<{ later: number; now: number }>, unknown]>(
      'SELECT UNIX_TIMESTAMP(NOW() + INTERVAL ? SECOND) AS later, UNIX_TIMESTAMP(NOW()) AS now',
      [90],
    );
    expect(Number(rows[0]?.later) - Number(rows[0]?.now)).toBe(90);
  });
});
