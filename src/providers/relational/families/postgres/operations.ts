import { knexRunner } from '../../drivers/schema-runner';
import type { FamilyOperations } from '../operations';
import { inspectTables } from './inspect';
import { purgeRunner } from './purge-runner';
import { indexBatch } from './purge-sql';
import { lockedSchema } from './schema-lock';

export const POSTGRES_OPERATIONS: FamilyOperations = {
  inspectTables,
  purgeRunner,
  firstPurgeBatch: indexBatch,
  schemaRunner: (knex, executor) => knexRunner(knex, executor.dialect),
  lockedSchema: (knex, executor, fn) => lockedSchema(knex, executor.dialect, fn),
};
