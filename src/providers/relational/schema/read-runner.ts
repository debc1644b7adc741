import type { Knex } from 'knex';
import type { Executor } from '../drivers/executor';
import type { SchemaRunner } from '../drivers/schema-runner';
import { familyOperations } from '../families/operations-by-dialect';

/**
 * Where schema reads (inspection, the TTL record, forecasts, due counts) run outside the schema
 * lock: SQLite's own connection, knex elsewhere. Inside the lock, withSchemaLock hands its runner.
 */
export function schemaRunnerFor(knex: Knex, executor: Executor): SchemaRunner {
  return familyOperations(executor.dialect).schemaRunner(knex, executor);
}
