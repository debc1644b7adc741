import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { LifespanError, StoreError } from '../../../errors';
import { keepShape } from '../../../shape-anchors';
import { wrapDriverError } from './driver-errors';
import { allWith, getWith, runCallOf, runWith } from './sqlite-calls';
import {
  poolOf,
  type BatchOp,
  type Executor,
  type KnexPool,
  type SyncExecutor,
  type TransactionRunner,
} from './executor';
import { RELATIONAL_STORE } from '../options';
import type { Statement } from '../table/statement';

/** SQLite needs 3.42 for unixepoch('subsec'), the database clock in milliseconds. */
const MIN_SQLITE = [3, 42, 0];

/**
 * Who holds each connection (a transaction or schema change in progress), by connection, not by
 * executor: every session opened over one knex has its own executor but shares knex's single
 * connection, and a second BEGIN on it while the first is open fails ("cannot start a transaction
 * within a transaction") or, for a plain statement, silently joins the other's transaction.
 */
const holds = new WeakMap<BetterSqlite3.Database, Promise<void>>();

/**
 * better-sqlite3 is synchronous and knex keeps a single connection: lifespan takes that
 * connection once and runs its prepared statements on it directly, so no call interleaves with
 * another and a transaction (a whole unit of work) runs without yielding. Work that yields while
 * it holds the connection (exclusive()) keeps every executor over that connection waiting.
 */
export class SqliteExecutor implements Executor, SyncExecutor {
  readonly dialect = 'sqlite' as const;
  private readonly prepared = new Map<Statement, BetterSqlite3.Statement>();
  private lastStatement: Statement | null = null;
  private lastPrepared: BetterSqlite3.Statement | null = null;
  /** batchSync's transaction function on the current connection (made on first use). */
  private batchTransaction: BetterSqlite3.Transaction<(ops: Iterable<BatchOp>, state: BatchState) => void> | null =
    null;

  private constructor(
    private readonly knex: Knex,
    private db: BetterSqlite3.Database,
  ) {}

  static async open(knex: Knex): Promise<SqliteExecutor> {
    refuseSeveralConnections(knex);
    const executor = new SqliteExecutor(knex, await SqliteExecutor.connection(knex));
    executor.checkVersion();
    return executor;
  }

  /** Knex hands out its connection and gets it straight back: better-sqlite3 calls never overlap. */
  private static async connection(knex: Knex): Promise<BetterSqlite3.Database> {
    const pool = poolOf(knex);
    const db = await acquireOrExplain(pool);
    await pool.releaseConnection(db);
    return db;
  }

  private checkVersion(): void {
    const version = String(this.db.prepare('SELECT sqlite_version()').pluck().get());
    const parts = version.split('.').map(Number);
    for (let i = 0; i < MIN_SQLITE.length; i++) {
      const have = parts[i] ?? 0;
      const need = MIN_SQLITE[i] as number;
      if (have > need) return;
      if (have < need) {
        throw new StoreError('RELATIONAL_SQLITE_TOO_OLD', `SQLite ${version} is older than 3.42`, {
          store: RELATIONAL_STORE,
          hint: 'use better-sqlite3 12 (it bundles a recent SQLite)',
        });
      }
    }
  }

  /** The raw connection, for schema inspection and changes inside exclusive(). */
  get connection(): BetterSqlite3.Database {
    return this.db;
  }

  /**
   * Whether the connection is open and nobody holds it: neither lifespan (`holds`) nor a transaction
   * the application opened on it (a knex transaction keeps the connection until it ends; a
   * statement run meanwhile would join it, and its rollback would undo what lifespan reported
   * written). Every call checks it in the same synchronous stretch as its use
   * (turn(): `if (this.free()) return work();`, no await in between): an awaited helper would
   * resolve a tick later, and by then another executor's waiting call may have taken the connection.
   */
  private free(): boolean {
    return !holds.has(this.db) && this.db.open && !this.db.inTransaction;
  }

  /**
   * Runs the synchronous `work` on the connection once it is free: after lifespan's holder lets go,
   * on the pool's new connection when the old one closed, and, while a transaction of the
   * application's is open, once knex's pool hands the connection out again — which it does only
   * when that transaction ended (the same wait knex's own queries outside it have, ended by the
   * same acquireConnectionTimeout). The connection taken so is kept from the pool until `work`
   * ran: given back first, the next knex transaction waiting for it could begin before `work`, and
   * a busy application would keep lifespan waiting for ever. Should the pool hand it out still
   * inside a transaction, that one was begun by hand (knex.raw('BEGIN')): nothing will end it.
   */
  private async turn<T>(work: () => T): Promise<T> {
    for (;;) {
      if (this.free()) return work();
      const held = holds.get(this.db);
      if (held) {
        await held;
        continue;
      }
      const pool = poolOf(this.knex);
      const db = await acquireOrExplain(pool);
      try {
        if (db !== this.db) {
          // The pool closed its connection (e.g. an idle timeout): this is the new one.
          this.forgetPrepared();
          this.db = db;
        }
        if (holds.has(db)) continue;
        if (db.inTransaction) throw openByHand();
        return work();
      } finally {
        giveBack(pool, db);
      }
    }
  }

  /** The prepared statement of `statement` (called with its parameters by sqlite-calls.ts). */
  private statement(statement: Statement): BetterSqlite3.Statement {
    if (statement === this.lastStatement && this.lastPrepared) return this.lastPrepared;
    let prepared = this.prepared.get(statement);
    if (!prepared) {
      prepared = this.db.prepare(statement.sql);
      if (statement.reads) prepared.raw(true).safeIntegers(statement.bigints);
      this.prepared.set(statement, prepared);
    }
    // A unit of work runs one statement row after row: no map lookup for the repeats.
    this.lastStatement = statement;
    this.lastPrepared = prepared;
    return prepared;
  }

  trySync(): SyncExecutor | null {
    return this.free() ? this : null;
  }

  rowsSync(statement: Statement, params: unknown[]): unknown[][] {
    try {
      return allWith(this.statement(statement), params) as unknown[][];
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a read');
    }
  }

  rowSync(statement: Statement, params: unknown[]): unknown[] | undefined {
    try {
      return getWith(this.statement(statement), params) as unknown[] | undefined;
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a read');
    }
  }

  runSync(statement: Statement, params: unknown[]): number {
    try {
      return runWith(this.statement(statement), params).changes;
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a write');
    }
  }

  rows(statement: Statement, params: unknown[]): Promise<unknown[][]> {
    return this.turn(() => this.rowsSync(statement, params));
  }

  run(statement: Statement, params: unknown[]): Promise<number> {
    return this.turn(() => this.runSync(statement, params));
  }

  /** Only what the driver raised is wrapped: an error from reading the ops reaches the caller as thrown. */
  batch(ops: Iterable<BatchOp>): Promise<void> {
    return this.turn(() => this.batchSync(ops));
  }

  private batchSync(ops: Iterable<BatchOp>): void {
    const state = batchState();
    // One transaction function per connection: better-sqlite3 builds four wrappers and defines
    // their properties each time db.transaction() is called (~4 µs, once per unit of work before).
    const transaction = (this.batchTransaction ??= this.db.transaction((o: Iterable<BatchOp>, s: BatchState) =>
      this.runBatch(o, s),
    ));
    try {
      transaction.immediate(ops, state);
    } catch (error) {
      // Otherwise BEGIN IMMEDIATE or COMMIT failed (e.g. SQLITE_BUSY).
      throw error === state.passed ? error : wrapDriverError(error, state.entity, 'a transaction');
    }
  }

  /** The statements of a batch, inside its transaction; `state` tells batchSync what failed where. */
  private runBatch(ops: Iterable<BatchOp>, state: BatchState): void {
    // The call of the last arity: a unit's rows are mostly of one statement.
    let arity = -1;
    let run = runCallOf(0);
    try {
      for (const op of ops) {
        const entity = op.statement.entity;
        state.entity = entity;
        const { params } = op;
        if (params.length !== arity) {
          arity = params.length;
          run = runCallOf(arity);
        }
        let changes: number;
        try {
          changes = run(this.statement(op.statement), params).changes;
        } catch (error) {
          throw wrapDriverError(error, entity, 'a transaction');
        }
        op.check?.(changes);
      }
    } catch (error) {
      state.passed = error;
      throw error;
    }
  }

  /**
   * Holds the single connection while `fn` runs, so nothing else joins the transaction. The
   * statements' own errors arrive wrapped (rowsSync/runSync); an error of `fn` itself as thrown.
   */
  transaction<T>(fn: (tx: TransactionRunner) => Promise<T>, opening?: readonly string[]): Promise<T> {
    return this.exclusive(async () => {
      const tx: TransactionRunner = {
        rows: async (statement, params) => this.rowsSync(statement, params),
        run: async (statement, params) => this.runSync(statement, params),
      };
      const exec = (sql: string) => {
        try {
          this.db.exec(sql);
        } catch (error) {
          throw wrapDriverError(error, undefined, 'a transaction');
        }
      };
      try {
        for (const sql of opening ?? ['BEGIN IMMEDIATE']) exec(sql);
        const result = await fn(tx);
        exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /** A synchronous driver has no round trips to save. */
  runInTransaction(opening: readonly string[], statement: Statement, params: unknown[]): Promise<number> {
    return this.transaction((tx) => tx.run(statement, params), opening);
  }

  /**
   * Runs `fn` on the connection once it is free (no await between the check and the use): for
   * reads outside a transaction, e.g. schema inspection and counts.
   */
  whenFree<T>(fn: (db: BetterSqlite3.Database) => T): Promise<T> {
    return this.turn(() => fn(this.db));
  }

  /**
   * Runs `fn` with the connection held: by lifespan's other executors (`holds`) and, since `fn`
   * yields, by the application too — taken from knex's pool meanwhile, so a knex query or
   * transaction waits for it rather than running inside lifespan's transaction.
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const pool = poolOf(this.knex);
    for (;;) {
      const held = holds.get(this.db);
      if (held) {
        await held;
        continue;
      }
      // The pool first: it hands the connection out once an application's transaction ended, in
      // the order asked, so the wait is one transaction's, not one per transaction begun meanwhile.
      const pooled = await acquireOrExplain(pool);
      if (holds.has(pooled)) {
        giveBack(pool, pooled);
        continue;
      }
      if (pooled !== this.db) {
        // The pool replaced its connection while we waited for it: the new one is the one held now.
        this.forgetPrepared();
        this.db = pooled;
      }
      if (pooled.inTransaction) {
        giveBack(pool, pooled);
        throw openByHand();
      }
      const release = hold(pooled);
      try {
        return await fn();
      } finally {
        try {
          giveBack(pool, pooled);
        } finally {
          release();
        }
      }
    }
  }

  close(): void {
    this.forgetPrepared();
  }

  /** Statements are prepared on one connection: a new connection prepares them again. */
  private forgetPrepared(): void {
    this.prepared.clear();
    this.lastStatement = null;
    this.lastPrepared = null;
    this.batchTransaction = null;
  }
}

/** Where a batch stopped: the entity of the statement it was at, and the error its statements raised. */
interface BatchState {
  entity: string | undefined;
  passed: unknown;
}

// Kept between batches with the code compiled for their shapes (shape-anchors.ts): a batch's state,
// and what statement.run() returns, built by better-sqlite3 as an empty object given two properties.
keepShape(batchState());

/** A batch's state before its first statement: one place builds it (its shape is kept above). */
function batchState(): BatchState {
  return { entity: undefined, passed: undefined };
}
keepShape(runResultShape());

function runResultShape(): object {
  const result: Record<string, number> = {};
  result.changes = 0;
  result.lastInsertRowid = 0;
  return result;
}

/**
 * Gives the connection back to knex's pool. Not awaited: knex's release is synchronous, and a
 * failed release (a pool destroyed meanwhile) leaves nothing of ours to undo.
 */
function giveBack(pool: KnexPool, db: BetterSqlite3.Database): void {
  try {
    void Promise.resolve(pool.releaseConnection(db)).catch(() => undefined);
  } catch {
    // Released by the pool's destroy already.
  }
}

/** Marks `db` held by lifespan; the function returned lets it go and wakes whoever waits. */
function hold(db: BetterSqlite3.Database): () => void {
  let resolve = () => {};
  holds.set(db, new Promise<void>((done) => (resolve = done)));
  return () => {
    if (!holds.has(db)) return;
    holds.delete(db);
    resolve();
  };
}

/**
 * lifespan runs on knex's one SQLite connection and keeps its transactions, the application's
 * waits and its prepared statements by that connection: with a larger pool, knex would hand the
 * application's transactions other connections, and lifespan's statements would wait on SQLite's
 * file lock in better-sqlite3's busy wait, which blocks the event loop that commit needs.
 */
function refuseSeveralConnections(knex: Knex): void {
  const max = (knex.client as { pool?: { max?: unknown } }).pool?.max;
  if (typeof max !== 'number' || max <= 1) return;
  throw new LifespanError(
    'STORE_BAD_OPTION',
    `the knex instance's pool allows ${max} better-sqlite3 connections; lifespan runs on SQLite's one connection`,
    { store: RELATIONAL_STORE, hint: "leave knex's pool for better-sqlite3 at its default (max: 1)" },
  );
}

/** The pool's connection, waited for; an acquire that fails is a typed error that keeps knex's cause. */
async function acquireOrExplain(pool: KnexPool): Promise<BetterSqlite3.Database> {
  try {
    return (await pool.acquireConnection()) as BetterSqlite3.Database;
  } catch (error) {
    if (error instanceof Error && error.name === 'KnexTimeoutError') {
      throw transactionOpen('a knex transaction (or query) kept it past the acquireConnectionTimeout', error, [
        'a lifespan call awaited inside knex.transaction() waits for that transaction itself:',
        'make the call after the transaction, or give knex a longer acquireConnectionTimeout',
      ]);
    }
    throw new StoreError('STORE_OPERATION_FAILED', "knex did not hand out SQLite's connection (was knex destroyed?)", {
      store: RELATIONAL_STORE,
      hint: 'keep the knex instance open while lifespan uses it (close the lifespan session first)',
      cause: error,
    });
  }
}

function openByHand(): StoreError {
  return transactionOpen('a transaction begun outside knex.transaction() (a BEGIN run by hand) holds it', null, [
    'end it with COMMIT or ROLLBACK before calling lifespan, or use knex.transaction()',
  ]);
}

function transactionOpen(why: string, cause: unknown, hint: readonly string[]): StoreError {
  return new StoreError(
    'RELATIONAL_SQLITE_TRANSACTION_OPEN',
    `lifespan did not run its statement on SQLite's one connection: ${why} (the statement would have joined that transaction)`,
    { store: RELATIONAL_STORE, hint: hint.join(' '), ...(cause ? { cause } : {}) },
  );
}
