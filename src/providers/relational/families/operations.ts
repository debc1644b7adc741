import type { Knex } from 'knex';
import type { Executor } from '../drivers/executor';
import type { SchemaRunner } from '../drivers/schema-runner';
import type { BatchRunner, PurgeContext } from '../purge/batch';
import type { LiveTable } from '../schema/live-table';
import type { Statement } from '../table/statement';
import type { NowMode, TableSql } from '../table/table-sql';

/**
 * What a family does differently against a live database, in one object per family
 * (families/<family>/operations.ts): its catalog queries, its purge, its schema lock. Kept apart
 * from SqlFamily, the family's SQL text and values, because these build on the neutral table,
 * statement and purge code that SqlFamily sits beneath.
 */
export interface FamilyOperations {
  /**
   * The named tables as the catalog has them (keyed by the catalog's spelling of the name), with
   * two catalog queries for all of them, one for columns and one for indexes.
   */
  inspectTables(runner: SchemaRunner, tables: readonly string[]): Promise<Map<string, LiveTable>>;
  /** How one table's due rows are deleted batch by batch. */
  purgeRunner(c: PurgeContext): Promise<BatchRunner>;
  /** The statement that opens a batch of n rows on the index walk (what explain and the plan snapshots show). */
  firstPurgeBatch(t: TableSql, mode: NowMode, ex: string, n: number): Statement;
  /** Where schema reads run outside the lock. */
  schemaRunner(knex: Knex, executor: Executor): SchemaRunner;
  /** Runs `fn` holding the database-wide schema lock, so concurrent ensureCollections() calls neither race nor fail. */
  lockedSchema<T>(knex: Knex, executor: Executor, fn: (runner: SchemaRunner) => Promise<T>): Promise<T>;
}
