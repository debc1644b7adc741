import { knexRunner } from '../../drivers/schema-runner';
import type { FamilyOperations } from '../operations';
import { inspectTables } from './inspect';
import { purgeRunner } from './purge-runner';
import { pickBatch } from './purge-sql';
import { lockedSchema } from './schema-lock';

export const MYSQL_OPERATIONS: FamilyOperations = {
  inspectTables,
  purgeRunner,
  firstPurgeBatch: (t, mode, ex, n) => pickBatch(t, mode, ex, n, true),
  schemaRunner: (knex, executor) => knexRunner(knex, executor.dialect),
  lockedSchema: (knex, executor, fn) => lockedSchema(knex, executor.dialect, fn),
};
