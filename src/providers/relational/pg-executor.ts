import type { Knex } from 'knex';
import { wrapDriverError } from './driver-errors';
import { poolOf, runInTransaction, type BatchOp, type Executor, type KnexPool } from './executor';
import type { Statement } from './statement';

/** The part of a `pg` Client lifespan uses (pg ships no types). */
interface PgClient {
  query(config: { name?: string; text: string; values?: unknown[]; rowMode?: 'array' }): Promise<PgResult>;
}

interface PgResult {
  readonly rows: unknown[];
  readonly rowCount: number | null;
}

/**
 * Named prepared statements on a connection borrowed from knex's pool for each call: `pg`
 * parses a named statement once per connection and afterwards only binds and executes it.
 */
export class PgExecutor implements Executor {
  readonly dialect = 'postgres' as const;
  private readonly pool: KnexPool;

  constructor(knex: Knex) {
    this.pool = poolOf(knex);
  }

  private async withClient<T>(fn: (client: PgClient) => Promise<T>): Promise<T> {
    const client = (await this.pool.acquireConnection()) as PgClient;
    try {
      return await fn(client);
    } finally {
      await this.pool.releaseConnection(client);
    }
  }

  private static exec(client: PgClient, statement: Statement, params: unknown[]): Promise<PgResult> {
    return client.query({ name: statement.name, text: statement.sql, values: params, rowMode: 'array' });
  }

  async rows(statement: Statement, params: unknown[]): Promise<unknown[][]> {
    try {
      return await this.withClient(async (c) => (await PgExecutor.exec(c, statement, params)).rows as unknown[][]);
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a read');
    }
  }

  async run(statement: Statement, params: unknown[]): Promise<number> {
    try {
      return await this.withClient(async (c) => (await PgExecutor.exec(c, statement, params)).rowCount ?? 0);
    } catch (error) {
      throw wrapDriverError(error, statement.entity, 'a write');
    }
  }

  async batch(ops: readonly BatchOp[]): Promise<void> {
    await this.withClient((client) =>
      runInTransaction(
        {
          exec: async (statement, params) => (await PgExecutor.exec(client, statement, params)).rowCount ?? 0,
          control: async (command) => {
            await client.query({ text: command });
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
    // Every call has its own connection; schema changes serialise with an advisory lock instead.
    return fn();
  }

  close(): void {
    // Named statements live on knex's connections and are reused by name (derived from the text).
  }
}
