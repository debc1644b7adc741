/**
 * SQLite in WAL mode: a commit that leaves the WAL at wal_autocheckpoint pages or more runs a
 * checkpoint before it returns, inside that purge batch. The purge runs checkpoints between its
 * batches instead, each ten times the last one's duration after it (at most a second; the first ten
 * batch budgets after the start) and a last one at its end, and puts the user's setting back
 * however it ends. Observed in the wal-index
 * (https://www.sqlite.org/walformat.html): nBackfill, the frames already copied back, moves only
 * when a checkpoint runs. (The test reads the -shm file, which drops this process's POSIX locks on
 * it; no other process uses these databases. The library never reads it.)
 */
import * as fs from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
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

  /** Batches small enough that many of them fill the WAL past the threshold; a budget that makes the first checkpoint come early. */
  const small = { batchSize: 256, batchBudgetMs: 5 };

  test('no batch runs a checkpoint; they run between batches, spaced, and a last one at the end', async () => {
    let before = 0;
    const inBatch: number[] = [];
    const checkpoints: { ended: number; took: number }[] = [];
    const started = performance.now();
    const result = await session.purgeExpired(small, {
      // A pause per batch: the purge lasts well past the first checkpoint however fast the machine.
      beforeBatch: async () => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        before = walIndex(file).backfilled;
      },
      afterBatch: () => {
        // A checkpoint raises nBackfill; the WAL's restart at the first write after one sets it to 0.
        if (walIndex(file).backfilled > before) inBatch.push(walIndex(file).backfilled);
      },
      between: (_table, took) => void checkpoints.push({ ended: performance.now(), took }),
    });
    expect(result.deleted).toBe(ROWS / 2);
    expect(result.batches).toBeGreaterThan(10);
    expect(inBatch).toEqual([]);
    expect(checkpoints.length).toBeGreaterThan(1);
    const first = checkpoints[0] as (typeof checkpoints)[number];
    expect(first.ended - first.took - started).toBeGreaterThanOrEqual(10 * small.batchBudgetMs);
    // The hook's timing includes the pacer's own work around the checkpoint, hence the margin.
    checkpoints.slice(1, -1).forEach((next, i) => {
      const previous = checkpoints[i] as (typeof checkpoints)[number];
      expect(next.ended - next.took - previous.ended).toBeGreaterThanOrEqual(Math.min(5 * previous.took, 900));
    });
    // The last one ran at the end: the WAL is all copied back, as after the DELETE's own commit.
    const index = walIndex(file);
    expect(index.backfilled).toBe(index.frames);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(THRESHOLD);
  });

  test('the connections keep their locks on the -shm file (closing a descriptor on it would drop them)', async () => {
    if (!fs.existsSync('/proc/locks')) {
      console.log('skipped: no /proc/locks on this system to read the locks from');
      return;
    }
    const locks = () => {
      const inode = fs.statSync(`${file}-shm`).ino;
      return fs
        .readFileSync('/proc/locks', 'utf8')
        .split('\n')
        .filter((line) => line.includes(`:${inode} `) && line.includes(` ${process.pid} `))
        .map((line) => line.replace(/^\d+:\s*/, ''));
    };
    const held = locks();
    expect(held.length).toBeGreaterThan(0);
    await session.purgeExpired(small);
    expect(locks()).toEqual(held);
  });

  test("a purge beside the caller's own transactions on the one connection completes, and the WAL is checkpointed", async () => {
    await knex.schema.createTable('app', (table) => table.integer('n'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    let stop = false;
    let checkpointed = false;
    const app = (async () => {
      while (!stop) {
        await knex.transaction(async (trx) => {
          await trx('app').insert({ n: 1 });
          await new Promise((resolve) => setTimeout(resolve, 2));
          await trx('app').insert({ n: 2 });
        });
      }
    })();
    try {
      const result = await session.purgeExpired(small, {
        beforeBatch: () => new Promise((resolve) => setTimeout(resolve, 2)),
        // Seen during the purge only: after it, the user's setting is back and any commit may checkpoint.
        between: () => void (checkpointed ||= walIndex(file).backfilled > 0),
      });
      expect(result.deleted).toBe(ROWS / 2);
    } finally {
      stop = true;
      await app;
    }
    // Each batch and checkpoint waited for the caller's transaction to end, and ran between them.
    expect(checkpointed).toBe(true);
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
