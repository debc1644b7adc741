import type { Knex } from 'knex';
import type { RelationalDialect } from '../families/dialects';
import { wrapDriverError } from './driver-errors';
import { poolOf, type BatchOp, type Executor, type KnexPool, type TransactionRunner } from './executor';
import type { Statement } from '../table/statement';

/** What one statement returned, in the form every caller needs. */
export interface DriverResult {
  readonly rows: unknown[][];
  readonly changes: number;
}

export type TransactionCommand = 'BEGIN' | 'COMMIT' | 'ROLLBACK';

interface Lease<Connection> {
  readonly connection: Promise<Connection>;
  users: number;
  idle: NodeJS.Immediate | null;
}

/**
 * An executor for asynchronous drivers (pg, mysql2): each call borrows a connection from knex's
 * pool, where the driver keeps its prepared statements. A driver only says how to send one
 * statement and one transaction-control command.
 */
export abstract class PooledExecutor<Connection> implements Executor {
  private readonly pool: KnexPool;

  protected constructor(
    knex: Knex,
    readonly dialect: RelationalDialect,
  ) {
    this.pool = poolOf(knex);
  }

  protected abstract send(connection: Connection, statement: Statement, params: unknown[]): Promise<DriverResult>;
  protected abstract control(connection: Connection, command: TransactionCommand): Promise<void>;
  /** One statement without parameters, sent as plain text (session and transaction settings). */
  protected abstract command(connection: Connection, sql: string): Promise<void>;

  private async withConnection<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = (await this.pool.acquireConnection()) as Connection;
    try {
      return await fn(connection);
    } finally {
      await this.pool.releaseConnection(connection);
    }
  }

  /**
   * One pooled connection shared by back-to-back single statements and handed back to the pool
   * once a turn of the event loop passes with no statement on it: borrowing from knex's pool per
   * statement costs about as much as a key lookup's own driver work. Only sequential calls share
   * it; transactions (batch) take their own.
   */
  private lease: Lease<Connection> | null = null;

  private async withSharedConnection<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    // A statement already running on the shared connection: borrow another one, so concurrent
    // callers still run in parallel and no connection ever carries two statements at once.
    if (this.lease && this.lease.users > 0) return this.withConnection(fn);
    const lease = this.currentLease();
    lease.users += 1;
    if (lease.idle) {
      clearImmediate(lease.idle);
      lease.idle = null;
    }
    try {
      return await fn(await lease.connection);
    } finally {
      lease.users -= 1;
      if (lease.users === 0) lease.idle = setImmediate(() => this.endLease(lease));
    }
  }

  private currentLease(): Lease<Connection> {
    if (this.lease) return this.lease;
    const lease: Lease<Connection> = {
      connection: this.pool.acquireConnection() as Promise<Connection>,
      users: 0,
      idle: null,
    };
    // A failed borrow must not stick: the next statement tries the pool again.
    lease.connection.catch(() => {
      if (this.lease === lease) this.lease = null;
    });
    this.lease = lease;
    return lease;
  }

  private endLease(lease: Lease<Connection>): void {
    if (lease.users > 0) return;
    if (this.lease === lease) this.lease = null;
    lease.connection.then(
      (connection) => this.pool.releaseConnection(connection),
      () => undefined,
    );
  }

  async rows(statement: Statement, params: unknown[]): Promise<unknown[][]> {
    try {
      return (await this.withSharedConnection((c) => this.send(c, statement, params))).rows;
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a read');
    }
  }

  async run(statement: Statement, params: unknown[]): Promise<number> {
    try {
      return (await this.withSharedConnection((c) => this.send(c, statement, params))).changes;
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a write');
    }
  }

  /**
   * All ops in one transaction on one connection; an op's check may throw to roll back. Only what
   * the driver raised is wrapped: an error from reading the ops (the caller's own code, a refused
   * value) reaches the caller as it was thrown.
   */
  async batch(ops: Iterable<BatchOp>): Promise<void> {
    await this.withConnection(async (connection) => {
      const tx = this.inTransaction(connection);
      await tx.control('BEGIN');
      try {
        for (const op of ops) {
          const { changes } = await tx.send(op.statement, op.params);
          op.check?.(changes);
        }
        await tx.control('COMMIT');
      } catch (error) {
        await this.control(connection, 'ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  async transaction<T>(fn: (tx: TransactionRunner) => Promise<T>, opening?: readonly string[]): Promise<T> {
    return this.withConnection(async (connection) => {
      const tx = this.inTransaction(connection);
      const runner: TransactionRunner = {
        rows: async (statement, params) => (await tx.send(statement, params)).rows,
        run: async (statement, params) => (await tx.send(statement, params)).changes,
      };
      try {
        if (opening) for (const sql of opening) await tx.command(sql);
        else await tx.control('BEGIN');
        const result = await fn(runner);
        await tx.control('COMMIT');
        return result;
      } catch (error) {
        await this.control(connection, 'ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** A driver that can send the whole transaction as one message overrides this (PostgreSQL). */
  runInTransaction(opening: readonly string[], statement: Statement, params: unknown[]): Promise<number> {
    return this.transaction((tx) => tx.run(statement, params), opening);
  }

  /**
   * Sends a whole transaction (BEGIN … COMMIT) in one message on a borrowed connection: `send` answers
   * the changed rows. A failure rolls back what the message began and is wrapped as any transaction's.
   */
  protected inOneMessage(entity: string, send: (connection: Connection) => Promise<number>): Promise<number> {
    return this.withConnection(async (connection) => {
      try {
        return await send(connection);
      } catch (error) {
        await this.control(connection, 'ROLLBACK').catch(() => undefined);
        throw wrapDriverError(error, entity, 'a transaction');
      }
    });
  }

  /** Sending on a transaction's connection, each driver error wrapped with the last statement's entity. */
  private inTransaction(connection: Connection) {
    let entity: string | undefined;
    const wrapped = async <R>(work: Promise<R>): Promise<R> => {
      try {
        return await work;
      } catch (error) {
        throw wrapDriverError(error, entity, 'a transaction');
      }
    };
    return {
      send: (statement: Statement, params: unknown[]) => {
        entity = statement.entity;
        return wrapped(this.send(connection, statement, params));
      },
      control: (command: TransactionCommand) => wrapped(this.control(connection, command)),
      command: (sql: string) => wrapped(this.command(connection, sql)),
    };
  }

  trySync(): null {
    return null;
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // Every call has its own connection; schema changes serialise with a database lock instead
    // (an advisory lock on PostgreSQL, GET_LOCK on MariaDB/MySQL).
    return fn();
  }

  close(): void {
    // The drivers keep prepared statements per connection themselves (pg by name, mysql2 by text);
    // only a shared connection still held goes back to the pool.
    const lease = this.lease;
    if (lease && lease.users === 0) {
      if (lease.idle) clearImmediate(lease.idle);
      this.endLease(lease);
    }
  }
}
