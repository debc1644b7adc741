/**
 * SQLite in WAL mode: a purge runs the WAL checkpoints itself between batches (outside any batch's
 * write lock) and puts the connection's automatic checkpoint setting back afterwards, also when
 * the purge fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { StoreContext } from '../../src';
import type { PurgeHooks } from '../../src/providers/relational/purge';
import { describeStore } from '../harness/stores';
import { knexConfig } from '../harness/relational';
import { connectRelational, TestClock } from './support/engines';
import { Token, make, testModel } from './support/models';
import { openSession } from './support/sessions';

describeStore('sqlite', 'relational SQLite purge in WAL mode', () => {
  const model = testModel('walpurge');
  const clock = new TestClock();
  let dir: string;
  let knex: Knex;
  let db: StoreContext;

  const pragma = async (sql: string): Promise<unknown> => {
    const rows = (await knex.raw(sql)) as Array<Record<string, unknown>>;
    return Object.values(rows[0] ?? {})[0];
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-wal-'));
    // One connection: the pragmas lifespan sets are per connection.
    knex = knexFactory({
      ...knexConfig('sqlite'),
      connection: { filename: path.join(dir, 'wal.db') },
      pool: { min: 1, max: 1 },
    });
    await knex.raw('PRAGMA journal_mode = WAL');
    // One page: lifespan's own checkpoints then run between every two batches.
    await knex.raw('PRAGMA wal_autocheckpoint = 1');
    db = await connectRelational(model, knex, { ttl: 'emulate', clock: clock.read });
    await db.ensureCollections();
  });

  afterAll(async () => {
    await db?.close();
    await knex?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function seed(prefix: string, count: number): Promise<void> {
    const uow = db.unitOfWork();
    for (let i = 0; i < count; i++) uow.insert(make(Token, { id: `${prefix}${i}`, owner: 'o' }), { ttl: 1 + i });
    await uow.commit();
    clock.advance(count + 10);
  }

  /**
   * The WAL index (`-shm`, native byte order): mxFrame, the last valid frame, at offset 16 of the
   * header; nBackfill, the frames already copied into the database, at offset 96. Equal: the WAL
   * holds nothing a checkpoint has still to do.
   */
  const walBacklog = (): number => {
    const shm = fs.readFileSync(path.join(dir, 'wal.db-shm'));
    return shm.readUInt32LE(16) - shm.readUInt32LE(96);
  };

  test('no batch commits a checkpoint: lifespan runs them between batches, and puts the setting back', async () => {
    await seed('a', 300);
    const backlog: number[] = [];
    const automatic: unknown[] = [];
    const purger = await openSession(model, knex, clock);
    const hooks: PurgeHooks = {
      beforeBatch: async () => {
        backlog.push(walBacklog());
        automatic.push(await pragma('PRAGMA wal_autocheckpoint'));
      },
    };
    const result = await purger.purgeExpired({ batchSize: 64, batchBudgetMs: 10_000 }, hooks);
    await purger.close();
    expect(result.deleted).toBe(300);
    expect(backlog.length).toBeGreaterThan(2);
    // After the first batch (the seed's frames may still wait), no batch leaves work to the next one.
    expect(backlog.slice(1)).toEqual(backlog.slice(1).map(() => 0));
    // ... because lifespan checkpointed between them: no batch's COMMIT runs one.
    expect(new Set(automatic)).toEqual(new Set([0]));
    expect(await pragma('PRAGMA wal_autocheckpoint')).toBe(1);
  });

  test('a purge that fails puts the setting back too, and reports its own error', async () => {
    await seed('b', 100);
    const purger = await openSession(model, knex, clock);
    const failing: PurgeHooks = {
      beforeBatch: () => {
        throw new Error('the batch failed');
      },
    };
    await expect(purger.purgeExpired({ batchSize: 10, batchBudgetMs: 10_000 }, failing)).rejects.toThrow(
      'the batch failed',
    );
    await purger.close();
    expect(await pragma('PRAGMA wal_autocheckpoint')).toBe(1);
  });
});
