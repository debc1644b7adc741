import type { Knex } from 'knex';
import { PooledExecutor, type DriverResult, type TransactionCommand } from './pooled-executor';
import {
  mysqlReadForm,
  passThroughTypeCast,
  rowsInSelectOrder,
  type MysqlField,
  type MysqlReadSettings,
} from './mysql-rows';
import type { Statement } from '../table/statement';

type Callback = (error: unknown, result: unknown, fields?: readonly MysqlField[]) => void;

/** The part of a `mysql2` (callback) Connection lifespan uses. */
interface MysqlConnection {
  /** The connection's settings as the user gave them to knex (mysql2's ConnectionConfig). */
  readonly config?: MysqlReadSettings;
  execute(options: MysqlExecuteOptions, callback: Callback): void;
  execute(sql: string, values: unknown[], callback: Callback): void;
  query(sql: string, callback: Callback): void;
}

interface MysqlExecuteOptions {
  readonly sql: string;
  readonly values: unknown[];
  readonly rowsAsArray: true;
  readonly nestTables: false;
  /** Overrides `typeCast: false` (raw Buffers) and a typeCast function of the connection's. */
  readonly typeCast: typeof passThroughTypeCast;
}

/**
 * mysql2 `execute` prepares each statement once per connection (its own cache) and then only
 * sends the bound values. Every statement goes the positional way, `execute(sql, values, cb)`:
 * the options-object form copies the options with a second object spread, which gives each call's
 * options a hidden class of its own, ~15 µs of CPU per statement in mysql2 (docs/performance.md).
 * Reads select what they need as text and name columns by position (families/mysql/family.ts), so the
 * connection's settings do not change the values read; the object form is kept for the settings
 * only it can override (nestTables, typeCast: false or a function: mysql-rows.ts).
 */
export class MysqlExecutor extends PooledExecutor<MysqlConnection> {
  constructor(knex: Knex, dialect: 'mariadb' | 'mysql') {
    super(knex, dialect);
  }

  protected send(connection: MysqlConnection, statement: Statement, params: unknown[]): Promise<DriverResult> {
    const objectForm = statement.reads && mysqlReadForm(connection.config) === 'options';
    return new Promise((resolve, reject) => {
      const done: Callback = (error, result, fields) => {
        if (error) return reject(error);
        if (!statement.reads) return resolve({ rows: [], changes: affected(result) });
        if (objectForm) return resolve({ rows: result as unknown[][], changes: 0 });
        // Inside mysql2's callback a throw would escape the promise: it rejects instead.
        try {
          resolve({ rows: rowsInSelectOrder(result as unknown[], fields, statement.entity), changes: 0 });
        } catch (refused) {
          reject(refused);
        }
      };
      if (!objectForm) return connection.execute(statement.sql, params, done);
      const options: MysqlExecuteOptions = {
        sql: statement.sql,
        values: params,
        rowsAsArray: true,
        nestTables: false,
        typeCast: passThroughTypeCast,
      };
      connection.execute(options, done);
    });
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

function affected(result: unknown): number {
  return Number((result as { affectedRows?: number } | undefined)?.affectedRows ?? 0);
}
