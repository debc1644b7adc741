/**
 * purgeExpired on every engine: batches, idempotence, the inclusive boundary, the race with a
 * concurrent writer, and the database clock (no injected clock, short real waits).
 */
import type { Knex } from 'knex';
import { connect, type StoreContext } from '../../src';
import type { PurgeBatchInfo } from '../../src/providers/contract';
import { RelationalStore } from '../../src/providers/relational';
import type { PurgeHooks } from '../../src/providers/relational/purge/purge';
import { PurgeInterruptedError } from '../../src/providers/relational/purge/pacing';
import { encodeInstant } from '../../src/providers/relational/codec';
import { compileSchema, type TableSpec } from '../../src/providers/relational/compile';
import { TableSql } from '../../src/providers/relational/table/table-sql';
import { bind, type Statement } from '../../src/providers/relational/table/statement';
import {
  deleteKeys as mysqlDeleteKeys,
  pickBatch as mysqlPickBatch,
} from '../../src/providers/relational/families/mysql/purge-sql';
import { blocksBatch as pgBlocksBatch } from '../../src/providers/relational/families/postgres/purge-sql';
import { rangeBatch as sqliteRangeBatch } from '../../src/providers/relational/families/sqlite/purge-sql';
import { knexFor } from '../harness/relational';
import {
  connectRelational,
  describeEngines,
  dropTables,
  prefixFor,
  sharedDatabase,
  TestClock,
  type SharedDatabase,
  useEmulatedStore,
} from './support/engines';
import { Session, Token, make, testModel } from './support/models';
import { openSession } from './support/sessions';

/** A batch budget no batch reaches on a loaded machine: tests that count batches see no shrinking. */
const SLOW_OK = 10_000;

async function rowsIn(knex: Knex, table: string): Promise<number> {
  const [row] = await knex(table).count({ n: '*' });
  return Number(row?.['n']);
}

/** `count` rows `${prefix}${i}` with distinct expiries, all due once the clock has moved 10 s. */
async function seed(db: StoreContext, prefix: string, count: number, clock?: TestClock): Promise<void> {
  const uow = db.unitOfWork();
  for (let i = 0; i < count; i++) uow.insert(make(Token, { id: `${prefix}${i}`, owner: 'o' }), { ttl: 1 + i });
  await uow.commit();
  clock?.advance(10);
}

describeEngines('relational purgeExpired', (engine) => {
  const model = testModel(prefixFor('purge'));
  const tokens = model.entities.find((e) => e.target === Token)?.collection as string;
  const clock = new TestClock();
  let shared: SharedDatabase;
  let knex: Knex;
  let db: StoreContext;

  beforeAll(async () => {
    shared = sharedDatabase(engine);
    knex = shared.open();
    await dropTables(knex, model);
    db = await connectRelational(model, knex, { ttl: 'emulate', clock: clock.read });
    await db.ensureCollections();
  });

  afterAll(async () => {
    await db?.close();
    await dropTables(knex, model);
    await knex?.destroy();
    shared?.cleanup();
  });

  beforeEach(async () => {
    await knex(tokens).delete();
  });

  test('deletes due rows in batches, reports progress, and is idempotent', async () => {
    const repo = db.repository(Token);
    const uow = db.unitOfWork();
    for (let i = 0; i < 7; i++) uow.insert(make(Token, { id: `due${i}`, owner: 'o' }));
    for (let i = 0; i < 3; i++) uow.insert(make(Token, { id: `never${i}`, owner: 'o' }), { ttl: 'never' });
    for (let i = 0; i < 2; i++) uow.insert(make(Token, { id: `later${i}`, owner: 'o' }), { ttl: 100 });
    await uow.commit();
    clock.advance(10);
    expect(await repo.count()).toBe(5);
    expect(await rowsIn(knex, tokens)).toBe(12);

    const progress: number[] = [];
    const result = await db.purgeExpired({ batchSize: 3, batchBudgetMs: SLOW_OK, onProgress: (n) => progress.push(n) });
    expect(result).toMatchObject({
      deleted: 7,
      batches: 3,
      skipped: 0,
      byTable: expect.objectContaining({ [tokens]: 7 }),
    });
    expect(progress).toEqual([3, 6, 7]);
    expect(await rowsIn(knex, tokens)).toBe(5);
    expect(await db.purgeExpired({ batchSize: 3 })).toMatchObject({ deleted: 0, batches: 0 });
    expect(await rowsIn(knex, tokens)).toBe(5);
    expect(await repo.count()).toBe(5);
  });

  test('purges exactly the rows due at the given now (inclusive)', async () => {
    const start = clock.nowMs;
    await db.repository(Token).insert(make(Token, { id: 'b', owner: 'o' }), { ttl: 10 });
    expect(await db.purgeExpired({ now: new Date(start + 9999) })).toMatchObject({ deleted: 0 });
    expect(await db.purgeExpired({ now: new Date(start + 10000) })).toMatchObject({ deleted: 1 });
    expect(await rowsIn(knex, tokens)).toBe(0);
  });

  test('refuses bad options', async () => {
    await expect(db.purgeExpired({ batchSize: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(db.purgeExpired({ now: new Date('x') })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    for (const batchBudgetMs of [0, -5, Number.NaN, 10_001, '50' as unknown as number]) {
      await expect(db.purgeExpired({ batchBudgetMs })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringContaining('batchBudgetMs'),
      });
    }
    await expect(db.purgeExpired({ onProgress: 3 as unknown as () => void })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringContaining('onProgress'),
    });
  });

  test('onProgress gets each batch: rows, time, batches so far, table and rows per second', async () => {
    const uow = db.unitOfWork();
    for (let i = 0; i < 5; i++) uow.insert(make(Token, { id: `p${i}`, owner: 'o' }), { ttl: 1 + i });
    await uow.commit();
    clock.advance(10);
    const calls: [number, PurgeBatchInfo][] = [];
    const result = await db.purgeExpired({
      batchSize: 2,
      batchBudgetMs: SLOW_OK,
      onProgress: (n, b) => calls.push([n, b]),
    });
    expect(result).toMatchObject({ deleted: 5, batches: 3 });
    expect(calls.map(([n]) => n)).toEqual([2, 4, 5]);
    expect(calls.map(([, b]) => [b.table, b.rows, b.batches])).toEqual([
      [tokens, 2, 1],
      [tokens, 2, 2],
      [tokens, 1, 3],
    ]);
    for (const [, b] of calls) {
      expect(b.ms).toBeGreaterThan(0);
      expect(Number.isInteger(b.rowsPerSecond) && b.rowsPerSecond > 0).toBe(true);
    }
  });

  test('an aborted signal stops the purge after the running batch; the result counts what was done', async () => {
    await seed(db, 's', 6, clock);
    const stop = new AbortController();
    const result = await db.purgeExpired({
      batchSize: 2,
      batchBudgetMs: SLOW_OK,
      signal: stop.signal,
      onProgress: () => stop.abort('SIGINT'),
    });
    expect(result).toMatchObject({ deleted: 2, batches: 1 });
    expect(await rowsIn(knex, tokens)).toBe(4);
    // Aborted before it starts: no table is purged.
    expect(await db.purgeExpired({ signal: stop.signal })).toMatchObject({ deleted: 0, batches: 0 });
    await expect(db.purgeExpired({ signal: 'stop' as unknown as AbortSignal })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
      message: expect.stringContaining('signal'),
    });
    expect(await db.purgeExpired({})).toMatchObject({ deleted: 4 });
  });

  test('afterBatch hears of every batch, also the last one that deleted nothing', async () => {
    await seed(db, 'h', 6, clock);
    const purger = await openSession(model, knex, clock);
    const before: string[] = [];
    const after: number[] = [];
    const result = await purger.purgeExpired(
      { batchSize: 3, batchBudgetMs: SLOW_OK },
      {
        beforeBatch: (table) => {
          if (table === tokens) before.push(table);
        },
        afterBatch: (table, rows) => {
          if (table === tokens) after.push(rows);
        },
      },
    );
    await purger.close();
    expect(result).toMatchObject({ deleted: 6, batches: 2 });
    expect(after).toEqual([3, 3, 0]);
    expect(before).toHaveLength(3);
  });

  test('a batch that meets a deadlock or lock wait timeout is retried, and the purge goes on', async () => {
    await seed(db, 'q', 6, clock);
    const purger = await openSession(model, knex, clock);
    let failures = 0;
    const deadlock = engine === 'postgres' ? { code: '40P01' } : { errno: 1213, code: 'ER_LOCK_DEADLOCK' };
    const result = await purger.purgeExpired({ batchSize: 2, batchBudgetMs: SLOW_OK }, {
      beforeBatch: (table) => {
        if (table === tokens && failures < 2) {
          failures += 1;
          throw Object.assign(new Error('Deadlock found when trying to get lock'), deadlock);
        }
      },
    } as PurgeHooks);
    await purger.close();
    expect(failures).toBe(2);
    expect(result).toMatchObject({ deleted: 6 });
    expect(await rowsIn(knex, tokens)).toBe(0);
  });

  test('a lock conflict that outlasts the retries stops the purge with PURGE_INTERRUPTED saying what was done', async () => {
    await seed(db, 'x', 6, clock);
    const purger = await openSession(model, knex, clock);
    let batches = 0;
    const attempt = purger.purgeExpired({ batchSize: 2, batchBudgetMs: SLOW_OK }, {
      beforeBatch: (table) => {
        if (table !== tokens) return;
        batches += 1;
        if (batches > 2) throw Object.assign(new Error('Lock wait timeout exceeded'), { errno: 1205, code: '55P03' });
      },
    } as PurgeHooks);
    const error = await attempt.then(
      () => null,
      (e: unknown) => e,
    );
    await purger.close();
    expect(error).toBeInstanceOf(PurgeInterruptedError);
    expect(error).toMatchObject({ code: 'PURGE_INTERRUPTED', deleted: 4, batches: 2, table: tokens });
    expect((error as Error).message).toContain('4 expired row(s) were purged in 2 batch(es)');
    expect((error as Error).message).toContain('resumes');
    expect(batches).toBe(2 + 1 + 6);
    // What it did stays done, and the next run takes the rest.
    expect(await rowsIn(knex, tokens)).toBe(2);
    expect(await db.purgeExpired()).toMatchObject({ deleted: 2 });
  });

  test('each batch statement reaches rows the way one DELETE does (query plans)', async () => {
    const dialect = engine === 'sqlite' ? 'sqlite' : engine === 'postgres' ? 'postgres' : 'mariadb';
    const spec = compileSchema(model, dialect, 'emulate').tables.find((x) => x.table === tokens) as TableSpec;
    const t = new TableSql(dialect, spec, 'createdAt');
    const now = encodeInstant(t.dialect, new Date(clock.nowMs));
    const explain = async (statement: Statement, args: unknown[] = []): Promise<string> => {
      const prefix = engine === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
      // knex numbers `?` itself; PostgreSQL's $n reuse one source, so bind by slot order.
      const text = engine === 'postgres' ? statement.sql.replace(/\$\d+/g, '?') : statement.sql;
      const values =
        engine === 'postgres'
          ? statement.slots.map((slot) => (slot.kind === 'arg' ? args[slot.index] : now))
          : bind(statement, { args, now });
      const out = await knex.raw(prefix + text, values as Knex.RawBinding[]);
      const rows = (engine === 'postgres' ? out.rows : engine === 'mariadb' ? out[0] : out) as object[];
      return rows.map((r) => Object.values(r).join(' ')).join('\n');
    };
    if (engine === 'sqlite') {
      // One walk of the expiry index for the boundary and one for the range; no lookup by key.
      const plan = await explain(sqliteRangeBatch(t, 'param', 'expires_at', 500));
      expect(plan).toMatch(/SEARCH \S+ USING (COVERING )?INDEX \S+ \(expires_at<\?\)/);
      expect(plan).not.toMatch(/autoindex|PRIMARY KEY|LIST SUBQUERY|\(id=\?\)/);
    } else if (engine === 'postgres') {
      // The block walk: a TID range scan, each page of the range read once, in physical order.
      const plan = await explain(pgBlocksBatch(t, 'param', 'expires_at'), ['(0,0)', '(64,0)']);
      expect(plan).toMatch(/Tid Range Scan/);
      expect(plan).not.toMatch(/Index|Sort|LockRows/);
    } else {
      // The pick walks the expiry index; the delete reaches the picked keys through the primary key.
      const pick = await explain(mysqlPickBatch(t, 'param', 'expires_at', 500, true));
      expect(pick).toMatch(/range .*expires_at/);
      expect(pick).not.toMatch(/filesort/);
      const remove = await explain(mysqlDeleteKeys(t, 'param', 'expires_at', 4), ['a', 'b', 'c', 'd']);
      expect(remove).toMatch(/range PRIMARY PRIMARY/);
    }
  });

  test('a row a concurrent writer renews between batches survives the purge', async () => {
    const purger = await openSession(model, knex, clock);
    const writerKnex = shared.open();
    const writer = await openSession(model, writerKnex, clock);
    try {
      const repo = writer.repository(Token);
      // distinct expiries: the batches pick r1, then r2, then r3 (oldest first)
      for (const [id, ttl] of [
        ['r1', 3],
        ['r2', 4],
        ['r3', 5],
      ] as const) {
        await repo.insert(make(Token, { id, owner: 'o' }), { ttl });
      }
      clock.advance(5);
      const seen: string[][] = [];
      let batch = 0;
      const result = await purger.purgeExpired(
        { batchSize: 1 },
        {
          beforeBatch: async (table) => {
            if (table !== tokens) return;
            batch += 1;
            seen.push((await knex(tokens).select('id').orderBy('id')).map((r: { id: string }) => r.id));
            // another connection renews r2 right before the batch that would have picked it
            if (batch === 2) await repo.upsert(make(Token, { id: 'r2', owner: 'renewed' }), { ttl: 60 });
          },
        },
      );
      // r2 was due when the purge started: only the statement's own expiry check spares it
      expect(seen[0]).toEqual(['r1', 'r2', 'r3']);
      expect(seen[1]).toEqual(['r2', 'r3']);
      expect(result).toMatchObject({ deleted: 2, batches: 2 });
      expect((await repo.get('r2'))?.owner).toBe('renewed');
      expect(await repo.ttl('r2')).toBe(60);
      expect(await rowsIn(knex, tokens)).toBe(1);
      expect((await purger.purgeExpired()).deleted).toBe(0);
      expect(await repo.exists('r2')).toBe(true);
    } finally {
      await writer.close();
      await purger.close();
      await writerKnex.destroy();
    }
  });

  test('a row renewed right before a full batch runs survives, and the batch takes the next due row', async () => {
    const purger = await openSession(model, knex, clock);
    const writerKnex = shared.open();
    const writer = await openSession(model, writerKnex, clock);
    try {
      const repo = writer.repository(Token);
      for (const id of ['s1', 's2', 's3']) await repo.insert(make(Token, { id, owner: 'o' }), { ttl: 5 });
      clock.advance(5);
      let renewed = false;
      const result = await purger.purgeExpired(
        { batchSize: 2, batchBudgetMs: SLOW_OK },
        {
          beforeBatch: async (table) => {
            if (table !== tokens || renewed) return;
            renewed = true;
            await repo.upsert(make(Token, { id: 's2', owner: 'renewed' }), { ttl: 60 });
          },
        },
      );
      expect(renewed).toBe(true);
      expect(result).toMatchObject({ deleted: 2, batches: 1 });
      expect(await rowsIn(knex, tokens)).toBe(1);
      expect((await repo.get('s2'))?.owner).toBe('renewed');
    } finally {
      await writer.close();
      await purger.close();
      await writerKnex.destroy();
    }
  });
});

describeEngines('relational TTL on the database clock', (engine) => {
  const model = testModel(prefixFor('dbclock'));
  let knex: Knex;
  let db: StoreContext;

  useEmulatedStore(engine, model, (suite) => ({ knex, db } = suite));

  test('rows expire by the database clock and are purged by it', async () => {
    const repo = db.repository(Token);
    await repo.insert(make(Token, { id: 'short', owner: 'o' }), { ttl: 1 });
    await repo.insert(make(Token, { id: 'default', owner: 'o' }));
    expect(await repo.ttl('short')).toBe(1);
    expect(await repo.ttl('default')).toBe(10);
    expect(await repo.exists('short')).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await repo.exists('short')).toBe(false);
    expect(await repo.count()).toBe(1);
    expect((await db.purgeExpired()).deleted).toBe(1);
    expect(await repo.exists('default')).toBe(true);
  });

  test('a session time zone other than UTC shifts neither expiry nor dates', async () => {
    const setZone: Record<typeof engine, string | null> = {
      sqlite: null, // SQLite has no session time zone; the check still runs on a second connection-less knex
      postgres: "SET TIME ZONE 'Pacific/Kiritimati'",
      mariadb: "SET time_zone = '+05:00'",
    };
    const zoneSql = setZone[engine];
    const zoned = zoneSql
      ? knexFor(engine, {
          pool: {
            min: 0,
            max: 2,
            afterCreate: (
              conn: { query: (sql: string, cb: (e: unknown) => void) => void },
              done: (e: unknown, c: unknown) => void,
            ) => conn.query(zoneSql, (e) => done(e, conn)),
          },
        })
      : knex;
    const other = zoned === knex ? db : await connect(model, new RelationalStore({ knex: zoned, ttl: 'emulate' }));
    try {
      const when = new Date(Date.UTC(2031, 5, 15, 10, 20, 30, 456));
      await other.repository(Session).insert(make(Session, { id: 'tz', payload: 'p', createdAt: when }));
      expect(await db.repository(Session).ttl('tz')).toBe(3600);
      expect(await other.repository(Session).ttl('tz')).toBe(3600);
      expect((await db.repository(Session).get('tz'))?.createdAt.toISOString()).toBe(when.toISOString());
      expect((await other.repository(Session).get('tz'))?.createdAt.toISOString()).toBe(when.toISOString());
    } finally {
      if (other !== db) await other.close();
      if (zoned !== knex) await zoned.destroy();
    }
  });
});

describeEngines('relational purge on a store that does not emulate', (engine) => {
  const model = testModel(prefixFor('noemu'));
  let knex: Knex;

  beforeAll(() => {
    knex = knexFor(engine);
  });
  afterAll(async () => {
    await knex?.destroy();
  });

  test("purgeExpired with ttl: 'ignore' says there is nothing to purge", async () => {
    const db = await connectRelational(model, knex, { ttl: 'ignore' });
    await expect(db.purgeExpired()).rejects.toMatchObject({ code: 'PURGE_NOT_EMULATED' });
    await db.close();
  });
});
