import type { Knex } from 'knex';
import { PooledExecutor, type DriverResult, type TransactionCommand } from './pooled-executor';
import type { Statement } from '../statement';

/** The part of a `pg` Client lifespan uses (pg ships no types). */
interface PgClient {
  query(config: { name?: string; text: string; values?: unknown[]; rowMode?: 'array' }): Promise<PgResult>;
}

interface PgResult {
  readonly rows: unknown[];
  readonly rowCount: number | null;
}

/**
 * Named prepared statements: `pg` parses a named statement once per connection and afterwards
 * only binds and executes it.
 */
export class PgExecutor extends PooledExecutor<PgClient> {
  constructor(knex: Knex) {
    super(knex, 'postgres');
  }

  protected async send(client: PgClient, statement: Statement, params: unknown[]): Promise<DriverResult> {
    const result = await client.query({ name: statement.name, text: statement.sql, values: params, rowMode: 'array' });
    return { rows: result.rows as unknown[][], changes: result.rowCount ?? 0 };
  }

  protected async control(client: PgClient, command: TransactionCommand): Promise<void> {
    await client.query({ text: command });
  }

  protected async command(client: PgClient, sql: string): Promise<void> {
    await client.query({ text: sql });
  }
}
