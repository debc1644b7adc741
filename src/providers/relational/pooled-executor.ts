import type { Knex } from 'knex';
import type { RelationalDialect } from './dialect';
import { wrapDriverError } from './driver-errors';
import { poolOf, type BatchOp, type Executor, type KnexPool } from './executor';
import type { Statement } from './statement';

/** What one statement returned, in the form every caller needs. */
export interface DriverResult {
  readonly rows: unknown[][];
  readonly changes: number;
}

export type TransactionCommand = 'BEGIN' | 'COMMIT' | 'ROLLBACK';

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

  private async withConnection<T>(fn: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = (await this.pool.acquireConnection()) as Connection;
    try {
      return await fn(connection);
    } finally {
      await this.pool.releaseConnection(connection);
    }
  }

  async rows(statement: Statement, params: unknown[]): Promise<unknown[][]> {
    try {
      return (await this.withConnection((c) => this.send(c, statement, params))).rows;
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a read');
    }
  }

  async run(statement: Statement, params: unknown[]): Promise<number> {
    try {
      return (await this.withConnection((c) => this.send(c, statement, params))).changes;
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a write');
    }
  }

  /** All ops in one transaction on one connection; an op's check may throw to roll back. */
  async batch(ops: readonly BatchOp[]): Promise<void> {
    await this.withConnection(async (connection) => {
      await this.control(connection, 'BEGIN');
      try {
        for (const op of ops) {
          const { changes } = await this.send(connection, op.statement, op.params);
          op.check?.(changes);
        }
        await this.control(connection, 'COMMIT');
      } catch (error) {
        await this.control(connection, 'ROLLBACK').catch(() => undefined);
        throw wrapDriverError(error, ops[0]?.statement.entity, 'a transaction');
      }
    });
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
    // The drivers keep prepared statements per connection themselves (pg by name, mysql2 by text).
  }
}
