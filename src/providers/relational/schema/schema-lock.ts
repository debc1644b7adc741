import type { Knex } from 'knex';
import { wrapDriverError } from '../drivers/driver-errors';
import type { Executor } from '../drivers/executor';
import type { SchemaRunner } from '../drivers/schema-runner';
import { familyOperations } from '../families/operations-by-dialect';

/**
 * Runs `fn` while holding the database-wide schema lock, so that ensureCollections() from several
 * processes at once neither races nor fails: PostgreSQL pg_advisory_xact_lock (DDL is
 * transactional there), MariaDB/MySQL GET_LOCK (DDL commits implicitly), SQLite BEGIN IMMEDIATE.
 */
export async function withSchemaLock<T>(
  knex: Knex,
  executor: Executor,
  fn: (runner: SchemaRunner) => Promise<T>,
): Promise<T> {
  try {
    return await familyOperations(executor.dialect).lockedSchema(knex, executor, fn);
  } catch (error) {
    throw wrapDriverError(error, undefined, 'a schema change');
  }
}
