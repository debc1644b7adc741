import type { Knex } from 'knex';
import type { RelationalDialect } from '../families/dialects';
import type { Statement } from '../table/statement';

/**
 * One statement of a transaction; `check` sees the affected row count and may throw to roll back.
 * An executor runs each op of a batch before it asks the iterable for the next, and keeps neither
 * the op nor its params after that: a unit of work binds every write into one reused object.
 */
export interface BatchOp {
  readonly statement: Statement;
  readonly params: unknown[];
  readonly check?: (changes: number) => void;
}

/** Statements sent on the connection of one open transaction. */
export interface TransactionRunner {
  rows(statement: Statement, params: unknown[]): Promise<unknown[][]>;
  run(statement: Statement, params: unknown[]): Promise<number>;
}

/** Synchronous execution, where the driver is synchronous (better-sqlite3). */
export interface SyncExecutor {
  rowsSync(statement: Statement, params: unknown[]): unknown[][];
  /** The first row only (key lookups). */
  rowSync(statement: Statement, params: unknown[]): unknown[] | undefined;
  runSync(statement: Statement, params: unknown[]): number;
}

/**
 * Runs prepared statements on the raw driver connection taken from knex: the hot paths skip
 * knex's query builder. Each statement is prepared once per connection.
 */
export interface Executor {
  /** The synchronous path when it can be taken right now (SQLite, no schema change running), else null. */
  trySync(): SyncExecutor | null;
  readonly dialect: RelationalDialect;
  /** Rows as arrays, in select-list order. */
  rows(statement: Statement, params: unknown[]): Promise<unknown[][]>;
  /** The number of rows changed. */
  run(statement: Statement, params: unknown[]): Promise<number>;
  /**
   * All ops in one transaction, in order. An iterable is read as the transaction runs (a large
   * unit of work never holds all of its bound statements at once); an error it throws rolls back.
   */
  batch(ops: Iterable<BatchOp>): Promise<void>;
  /**
   * `fn` inside one transaction on one connection: committed when it resolves, rolled back when it
   * throws. `opening` replaces the plain BEGIN (e.g. an isolation level, `SET LOCAL lock_timeout`).
   */
  transaction<T>(fn: (tx: TransactionRunner) => Promise<T>, opening?: readonly string[]): Promise<T>;
  /**
   * `opening` (which begins the transaction), one statement and COMMIT, in one round trip where the
   * driver can send them as one message (PostgreSQL); rolled back when any of them fails. The
   * statement's changed rows. On PostgreSQL `params` are written into the text as SQL literals, so
   * they may only be finite numbers and plain text (letters, digits, space and `: . + - ( ) ,`:
   * block bounds, ISO instants), and the statement may hold no comment, prefixed (E'…') string,
   * dollar quote or `$` in a name; anything else is a RELATIONAL_INTERNAL error, raised before a
   * connection is borrowed.
   */
  runInTransaction(opening: readonly string[], statement: Statement, params: unknown[]): Promise<number>;
  /** Holds other work of this executor back while `fn` runs (schema changes on SQLite's single connection). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  close(): void;
}

/** The part of knex's client the executors use: its pool. */
export interface KnexPool {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown> | unknown;
}

export function poolOf(knex: Knex): KnexPool {
  return knex.client as unknown as KnexPool;
}
