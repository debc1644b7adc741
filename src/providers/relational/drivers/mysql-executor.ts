import type { Knex } from 'knex';
import { PooledExecutor, type DriverResult, type TransactionCommand } from './pooled-executor';
import type { Statement } from '../statement';

/** The part of a `mysql2` (callback) Connection lifespan uses. */
interface MysqlConnection {
  execute(options: MysqlExecuteOptions, callback: (error: unknown, result: unknown) => void): void;
  execute(sql: string, values: unknown[], callback: (error: unknown, result: unknown) => void): void;
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
 * sends the bound values.
 */
export class MysqlExecutor extends PooledExecutor<MysqlConnection> {
  constructor(knex: Knex, dialect: 'mariadb' | 'mysql') {
    super(knex, dialect);
  }

  protected async send(connection: MysqlConnection, statement: Statement, params: unknown[]): Promise<DriverResult> {
    if (!statement.reads) return { rows: [], changes: affected(await write(connection, statement.sql, params)) };
    const options: MysqlExecuteOptions = {
      sql: statement.sql,
      values: params,
      rowsAsArray: true,
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
    };
    const result = await new Promise<unknown>((resolve, reject) =>
      connection.execute(options, (error, value) => (error ? reject(error) : resolve(value))),
    );
    // Writes went the positional way above: a read answers rows.
    return { rows: result as unknown[][], changes: 0 };
  }

  protected control(connection: MysqlConnection, command: TransactionCommand): Promise<void> {
    return this.command(connection, command === 'BEGIN' ? 'START TRANSACTION' : command);
  }

  protected async command(connection: MysqlConnection, sql: string): Promise<void> {
    await new Promise((resolve, reject) =>
      connection.query(sql, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
}

/**
 * A write needs none of the read options, and mysql2's positional `execute(sql, values, cb)` costs
 * less CPU per call than its options-object form (a few µs of JavaScript per statement in a profile,
 * and less garbage; see docs/performance.md).
 */
function write(connection: MysqlConnection, sql: string, params: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) =>
    connection.execute(sql, params, (error, value) => (error ? reject(error) : resolve(value))),
  );
}

function affected(result: unknown): number {
  return Number((result as { affectedRows?: number } | undefined)?.affectedRows ?? 0);
}
