/**
 * Single statements share one pooled connection between back-to-back calls (pg, mysql2); a
 * transaction takes its own. With a pool of one connection, nothing may wait forever.
 */
import type { Knex } from 'knex';
import type { StoreContext } from '../../src';
import { describeStore } from '../harness/stores';
import { prefixFor, useEmulatedStore } from './support/engines';
import { Session, make, testModel } from './support/models';

for (const engine of ['postgres', 'mariadb'] as const) {
  describeStore(engine, `shared pooled connection [${engine}]`, () => {
    const model = testModel(prefixFor('shared'));
    let knex: Knex;
    let db: StoreContext;

    useEmulatedStore(engine, model, (suite) => ({ knex, db } = suite), {
      knex: { pool: { min: 0, max: 1, acquireTimeoutMillis: 10_000 } },
    });

    test('concurrent reads, writes and a transaction all finish on a pool of one', async () => {
      const sessions = db.repository(Session);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => sessions.insert(make(Session, { id: `s${i}`, payload: 'p' }))),
      );
      const uow = db.unitOfWork();
      for (let i = 0; i < 5; i += 1) uow.insert(make(Session, { id: `u${i}`, payload: 'q' }));
      const [gets, , count] = await Promise.all([
        Promise.all(Array.from({ length: 50 }, (_, i) => sessions.get(`s${i % 20}`))),
        uow.commit(),
        sessions.count(),
      ]);
      expect(gets.every((s) => s?.payload === 'p')).toBe(true);
      expect(count).toBeGreaterThanOrEqual(20);
      expect(await sessions.count()).toBe(25);
    });

    test('the connection goes back to the pool once reads stop', async () => {
      const sessions = db.repository(Session);
      await sessions.get('s1');
      await new Promise((resolve) => setImmediate(resolve));
      // With max 1, a direct knex query can only run once lifespan has handed the connection back.
      const started = Date.now();
      await knex.raw('SELECT 1');
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });
}
