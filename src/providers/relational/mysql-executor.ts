import type { Knex } from 'knex';
import { wrapDriverError } from './driver-errors';
import { poolOf, runInTransaction, type BatchOp, type Executor, type KnexPool } from './executor';
import type { Statement } from './statement';

/** The part of a `mysql2` (callback) Connection lifespan uses. */
interface MysqlConnection {
  execute(options: MysqlExecuteOptions, callback: (error: unknown, result: unknown) => void): void;
  query(sql: string, callback: (error: unknown, result: unknown) => void): void;
}

interface MysqlExecuteOptions {
  readonly sql: string;
  readonly values: unknown[];
  readonly rowsAsArray: boolean;
  /** DATETIME as 'YYYY-MM-DD HH:MM:SS.mmm' text: lifespan stores UTC and must not apply a zone. */
  readonly dateStrings: boolean;
  readonly supportBigNumbers: boolean;
  readonly bigNumberStrings: boolean;
}

/**
 * mysql2 `execute` prepares each statement once per connection (its own cache) and then only
 * sends the bound values; the connection is borrowed from knex's pool for each call.
 */
export class MysqlExecutor implements Executor {
  private readonly pool: KnexPool;

  constructor(
    knex: Knex,
    readonly dialect: 'mariadb' | 'mysql',
  ) {
    this.pool = poolOf(knex);
  }

  private async withConnection<T>(fn: (connection: MysqlConnection) => Promise<T>): Promise<T> {
    const connection = (await this.pool.acquireConnection()) as MysqlConnection;
    try {
      return await fn(connection);
    } finally {
      await this.pool.releaseConnection(connection);
    }
  }

  private static exec(connection: MysqlConnection, statement: Statement, params: unknown[]): Promise<unknown> {
    const options: MysqlExecuteOptions = {
      sql: statement.sql,
      values: params,
      rowsAsArray: true,
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
    };
    return new Promise((resolve, reject) =>
      connection.execute(options, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }

  private static plain(connection: MysqlConnection, sql: string): Promise<unknown> {
    return new Promise((resolve, reject) =>
      connection.query(sql, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }

  async rows(statement: Statement, params: unknown[]): Promise<unknown[][]> {
    try {
      return await this.withConnection(async (c) => (await MysqlExecutor.exec(c, statement, params)) as unknown[][]);
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a read');
    }
  }

  async run(statement: Statement, params: unknown[]): Promise<number> {
    try {
      return await this.withConnection(async (c) => affected(await MysqlExecutor.exec(c, statement, params)));
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a write');
    }
  }

  async batch(ops: readonly BatchOp[]): Promise<void> {
    await this.withConnection((connection) =>
      runInTransaction(
        {
          exec: async (statement, params) => affected(await MysqlExecutor.exec(connection, statement, params)),
          control: async (command) => {
            await MysqlExecutor.plain(connection, command === 'BEGIN' ? 'START TRANSACTION' : command);
          },
        },
        ops,
        (error) => wrapDriverError(error, ops[0]?.statement.entity, 'a transaction'),
      ),
    );
  }

  trySync(): null {
    return null;
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // Every call has its own connection; schema changes serialise with GET_LOCK instead.
    return fn();
  }

  close(): void {
    // mysql2 keeps (and evicts) prepared statements per connection itself.
  }
}

function affected(result: unknown): number {
  return Number((result as { affectedRows?: number } | undefined)?.affectedRows ?? 0);
}
