import type { Knex } from 'knex';
import { withLiterals } from './pg-literals';
import { PooledExecutor, type DriverResult, type TransactionCommand } from './pooled-executor';
import type { Statement } from '../table/statement';

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

  /**
   * One simple-query message: BEGIN, the rest of the opening, the statement (its parameters as
   * literals, pg-literals.ts) and COMMIT, so a short transaction costs one round trip instead of
   * one a statement. A failing statement skips the rest of the message and leaves the transaction
   * aborted; inOneMessage's ROLLBACK ends it. A parameter that cannot be a literal is refused here,
   * before any connection is borrowed.
   */
  override async runInTransaction(
    opening: readonly string[],
    statement: Statement,
    params: unknown[],
  ): Promise<number> {
    const text = [...opening, withLiterals(statement.sql, params, statement.entity), 'COMMIT'].join(';\n');
    return this.inOneMessage(statement.entity, async (client) => {
      // Several statements in one text without values: the simple query protocol, a result each.
      const results = (await client.query({ text })) as unknown as PgResult[];
      return results[opening.length]?.rowCount ?? 0;
    });
  }

  protected async command(client: PgClient, sql: string): Promise<void> {
    await client.query({ text: sql });
  }
}
