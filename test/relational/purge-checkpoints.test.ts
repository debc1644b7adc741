/**
 * SQLite in WAL mode: a commit that leaves the WAL at wal_autocheckpoint pages or more runs a
 * checkpoint before it returns, inside that purge batch. The purge runs those checkpoints between
 * its batches instead, at the same threshold, and puts the user's setting back however it ends.
 * Observed in the wal-index (https://www.sqlite.org/walformat.html): nBackfill, the frames already
 * copied back, moves only when a checkpoint runs.
 */
import * as fs from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import * as path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import { Lease, leaseModel } from './support/block-walk';
import { TestClock } from './support/engines';
import { openSession } from './support/sessions';
import type { RelationalSession } from '../../src/providers/relational';

const ROWS = 20_000;
const THRESHOLD = 64;

/** nBackfill (frames checkpointed into the database) and mxFrame (frames in the WAL) from the -shm file. */
function walIndex(file: string): { backfilled: number; frames: number } {
  const bytes = fs.readFileSync(`${file}-shm`).subarray(0, 136);
  const u32 = (at: number) => (endianness() === 'LE' ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  return { frames: u32(16), backfilled: u32(96) };
}

describe('relational purgeExpired on SQLite: WAL checkpoints between batches', () => {
  const clock = new TestClock();
  const model = leaseModel('leases');
  let dir: string;
  let file: string;
  let knex: Knex;
  let session: RelationalSession;
  let db: BetterSqlite3.Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(tmpdir(), 'lifespan-ckpt-'));
    file = path.join(dir, 'purge.db');
    knex = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    db = (await knex.client.acquireConnection()) as BetterSqlite3.Database;
    await knex.client.releaseConnection(db);
    db.pragma('journal_mode = WAL');
    db.pragma(`wal_autocheckpoint = ${THRESHOLD}`);
    session = await openSession(model, knex, clock);
    await session.ensureCollections();
    const uow = session.unitOfWork();
    for (let i = 0; i < ROWS; i++) {
      uow.insert(Object.assign(new Lease(), { id: `k${(i * 7919) % ROWS}`, owner: 'o' }), { ttl: i % 2 ? 7200 : 1 });
    }
    await uow.commit();
    db.pragma('wal_checkpoint(TRUNCATE)');
    clock.advance(3600);
  });

  afterEach(async () => {
    await session.close();
    await knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Batches small enough that many of them fill the WAL past the threshold. */
  const small = { batchSize: 256 };

  test('no batch runs a checkpoint; they run between batches, and the WAL stays near the threshold', async () => {
    let before = 0;
    const inBatch: number[] = [];
    let between = 0;
    let most = 0;
    const result = await session.purgeExpired(small, {
      beforeBatch: () => void (before = walIndex(file).backfilled),
      afterBatch: () => {
        const index = walIndex(file);
        // A checkpoint raises nBackfill; the WAL's restart at the first write after one sets it to 0.
        if (index.backfilled > before) inBatch.push(index.backfilled);
        most = Math.max(most, index.frames);
      },
      between: () => void between++,
    });
    expect(result.deleted).toBe(ROWS / 2);
    expect(result.batches).toBeGreaterThan(10);
    expect(inBatch).toEqual([]);
    expect(between).toBeGreaterThan(0);
    // At most one batch's frames past the threshold before the checkpoint after it.
    expect(most).toBeLessThan(THRESHOLD * 8);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(THRESHOLD);
  });

  test('the setting is put back when the purge fails', async () => {
    let batches = 0;
    const failing = session.purgeExpired(small, {
      beforeBatch: () => {
        if (++batches === 3) throw new Error('stop');
      },
    });
    await expect(failing).rejects.toThrow('stop');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(THRESHOLD);
  });

  test('with automatic checkpoints off, the purge runs none either', async () => {
    db.pragma('wal_autocheckpoint = 0');
    let between = 0;
    await session.purgeExpired(small, { between: () => void between++ });
    expect(between).toBe(0);
    expect(walIndex(file).backfilled).toBe(0);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  });
});
