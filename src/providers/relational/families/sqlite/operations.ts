import { sqliteSharedRunner } from '../../drivers/schema-runner';
import type { SqliteExecutor } from '../../drivers/sqlite-executor';
import type { FamilyOperations } from '../operations';
import { inspectTables } from './inspect';
import { purgeRunner } from './purge-runner';
import { rangeBatch } from './purge-sql';
import { lockedSchema } from './schema-lock';

/** Schema work runs on the executor's own connection: knex could hand out a second one. */
export const SQLITE_OPERATIONS: FamilyOperations = {
  inspectTables,
  purgeRunner: (c) => purgeRunner(c, c.executor as SqliteExecutor),
  firstPurgeBatch: rangeBatch,
  schemaRunner: (_knex, executor) => sqliteSharedRunner(executor as SqliteExecutor),
  lockedSchema: (_knex, executor, fn) => lockedSchema(executor as SqliteExecutor, fn),
};
