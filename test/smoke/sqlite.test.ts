/** Smoke test of SQLite through knex + better-sqlite3 (in memory): server-side unixepoch() + n. */
import type { Knex } from 'knex';
import { knexFor } from '../harness/relational';
import { describeStore } from '../harness/stores';

describeStore('sqlite', 'sqlite smoke', () => {
  let db: Knex;

  beforeAll(() => {
    db = knexFor('sqlite');
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it('computes unixepoch() + n in the database', async () => {
    const rows = await db.raw<Array<{ later: number; now: number }>>(
      'SELECT unixepoch() + ? AS later, unixepoch() AS now',
      [90],
    );
    expect(rows[0]?.later).toBeGreaterThan(1_600_000_000);
    expect((rows[0]?.later ?? 0) - (rows[0]?.now ?? 0)).toBe(90);
  });

  it('keeps one in-memory database across queries (one pooled connection)', async () => {
    await db.schema.createTable('t', (t) => {
      t.string('id').primary();
      t.integer('expires_at');
    });
    await db('t').insert({ id: 'a', expires_at: db.raw('unixepoch() + ?', [60]) });
    const live = await db('t').where('expires_at', '>', db.raw('unixepoch()')).count<Array<{ n: number }>>({ n: '*' });
    expect(Number(live[0]?.n)).toBe(1);
  });
});
