/**
 * SQLite through knex has one connection. A knex transaction the application opens on it holds
 * that connection until it commits or rolls back; lifespan's statements must not run inside it
 * (a rollback there would undo writes lifespan reported done). They wait for it, as knex's own
 * queries outside the transaction do, and a wait that cannot end is a typed error, not a hang.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { LifespanError } from '../../src';
import type { RelationalSession } from '../../src/providers/relational';
import { Lease, leaseModel } from './support/block-walk';
import { TestClock } from './support/engines';
import { openSession } from './support/sessions';

describe("SQLite: a knex transaction opened by the application on lifespan's connection", () => {
  const clock = new TestClock();
  let dir: string;
  let knex: Knex;
  let session: RelationalSession;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(tmpdir(), 'lifespan-foreign-tx-'));
    knex = knexFactory({
      client: 'better-sqlite3',
      connection: { filename: path.join(dir, 'app.db') },
      useNullAsDefault: true,
      acquireConnectionTimeout: 1_000,
      // knex logs its own acquire timeout; the test asserts the error lifespan makes of it.
      log: { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined },
    });
    session = await openSession(leaseModel('leases'), knex, clock);
    await session.ensureCollections();
    await knex.schema.createTable('app', (table) => table.integer('n'));
  });

  afterEach(async () => {
    await session.close();
    await knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const lease = (id: string) => Object.assign(new Lease(), { id, owner: 'o' });
  const leases = () => session.repository(Lease);

  /** Opens a knex transaction that stays open until `end` is called; resolves once it holds the connection. */
  async function openAppTransaction(
    work: (trx: Knex.Transaction) => Promise<unknown> = (trx) => trx('app').insert({ n: 1 }),
  ): Promise<{ end: (outcome: 'commit' | 'rollback') => Promise<void> }> {
    let finish: (outcome: 'commit' | 'rollback') => void = () => undefined;
    let started: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => (started = resolve));
    const done = knex
      .transaction(async (trx) => {
        await work(trx);
        started();
        const outcome = await new Promise<'commit' | 'rollback'>((resolve) => (finish = resolve));
        if (outcome === 'rollback') throw new Error('rolled back by the application');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'rolled back by the application') throw error;
      });
    await holding;
    return {
      end: async (outcome) => {
        finish(outcome);
        await done;
      },
    };
  }

  test("a write while it is open waits for it, and its rollback does not undo lifespan's write", async () => {
    const app = await openAppTransaction();
    const write = leases().insert(lease('a'));
    let written = false;
    void write.then(() => (written = true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(written).toBe(false);
    } finally {
      await app.end('rollback');
    }
    await write;
    expect(await leases().get({ id: 'a' })).not.toBeNull();
    expect(await knex('app').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  test('a unit of work and a purge wait for it too; what the purge counted stays deleted', async () => {
    const uow = session.unitOfWork();
    for (let i = 0; i < 50; i++) uow.insert(lease(`k${i}`), { ttl: i % 2 ? 7200 : 1 });
    await uow.commit();
    clock.advance(3600);
    const app = await openAppTransaction();
    const purge = session.purgeExpired();
    const committed = session.unitOfWork().insert(lease('late')).commit();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.end('rollback');
    expect((await purge).deleted).toBe(25);
    await committed;
    // Counted by hand: an expired row the rollback had brought back would be hidden from count().
    expect(await knex('leases').count({ n: '*' })).toEqual([{ n: 26 }]);
  });

  test('a read while it is open waits for it: it never sees what the application then rolls back', async () => {
    const app = await openAppTransaction((trx) =>
      trx('leases').insert({ id: 'uncommitted', owner: 'o', expires_at: Date.parse('2100-01-01T00:00:00Z') }),
    );
    const read = leases().get({ id: 'uncommitted' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.end('rollback');
    expect(await read).toBeUndefined();
  });

  test('a lifespan call awaited inside the transaction fails with a typed error after the acquire timeout', async () => {
    const failure = await knex
      .transaction(async () => {
        await leases().insert(lease('inside'));
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(LifespanError);
    expect((failure as LifespanError).code).toBe('RELATIONAL_SQLITE_TRANSACTION_OPEN');
    expect((failure as LifespanError).message).toMatch(/knex transaction/);
    expect(await leases().get({ id: 'inside' })).toBeUndefined();
  });

  test('a BEGIN run by hand outside knex.transaction() is a typed error, not a write inside it', async () => {
    await knex.raw('BEGIN');
    try {
      await expect(leases().insert(lease('a'))).rejects.toMatchObject({ code: 'RELATIONAL_SQLITE_TRANSACTION_OPEN' });
    } finally {
      await knex.raw('ROLLBACK');
    }
    expect(await leases().get({ id: 'a' })).toBeUndefined();
  });

  test('a write between back-to-back application transactions gets its turn', async () => {
    let stop = false;
    let transactions = 0;
    // Two loops: whenever one transaction ends, the other's is already waiting for the pool.
    const loop = async () => {
      while (!stop) {
        await knex.transaction(async (trx) => {
          await trx('app').insert({ n: 1 });
          await new Promise((resolve) => setImmediate(resolve));
        });
        transactions += 1;
      }
    };
    const app = Promise.all([loop(), loop()]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const written = leases().insert(lease('busy'));
      const outcome = await Promise.race([
        written.then(() => 'written'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3_000)),
      ]);
      expect(outcome).toBe('written');
      expect(transactions).toBeGreaterThan(0);
    } finally {
      stop = true;
      await app;
    }
  });

  test('with setImmediate faked (an application testing with fake timers), the connection still goes back to knex', async () => {
    const app = await openAppTransaction();
    const write = leases().insert(lease('a'));
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'queueMicrotask',
        'setTimeout',
        'clearTimeout',
        'Date',
        'performance',
        'hrtime',
        'setInterval',
        'clearInterval',
      ],
    });
    try {
      await app.end('commit');
      await write;
      await expect(knex('app').count({ n: '*' })).resolves.toEqual([{ n: 1 }]);
    } finally {
      jest.useRealTimers();
    }
  });

  test('counts and plans wait for it too: they never count what it then rolls back', async () => {
    const app = await openAppTransaction((trx) => trx('leases').insert({ id: 'due', owner: 'o', expires_at: 1 }));
    const due = session.countExpired();
    const plan = session.plan({ counts: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.end('rollback');
    expect(await due).toBe(0);
    await plan;
  });
});

describe('SQLite: a knex pool of more than one connection, and a knex destroyed while lifespan waits', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(tmpdir(), 'lifespan-pool-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const knexWith = (pool?: Knex.PoolConfig) =>
    knexFactory({
      client: 'better-sqlite3',
      connection: { filename: path.join(dir, 'app.db') },
      useNullAsDefault: true,
      log: { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined },
      ...(pool ? { pool } : {}),
    });

  test('a pool that allows several connections is refused when the store opens, naming it', async () => {
    const knex = knexWith({ min: 1, max: 2 });
    try {
      await expect(openSession(leaseModel('leases'), knex, new TestClock())).rejects.toMatchObject({
        code: 'STORE_BAD_OPTION',
        message: expect.stringMatching(/pool allows 2 better-sqlite3 connections/),
      });
    } finally {
      await knex.destroy();
    }
  });

  test('a call waiting for the connection when knex is destroyed fails with a typed error', async () => {
    const knex = knexWith();
    const session = await openSession(leaseModel('leases'), knex, new TestClock());
    await session.ensureCollections();
    let finish = () => {};
    const app = knex.transaction(async () => new Promise<void>((resolve) => (finish = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const write = session.repository(Lease).insert(Object.assign(new Lease(), { id: 'a', owner: 'o' }));
    const destroyed = knex.destroy();
    finish();
    await app.catch(() => undefined);
    await destroyed;
    await expect(write).rejects.toBeInstanceOf(LifespanError);
    await session.close();
  });
});
