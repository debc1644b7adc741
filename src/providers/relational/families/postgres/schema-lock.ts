import type { Knex } from 'knex';
import { knexRunner, type SchemaRunner } from '../../drivers/schema-runner';
import type { RelationalDialect } from '../dialects';
import { SCHEMA_LOCK_NAME } from '../../schema/names';

/** PostgreSQL: pg_advisory_xact_lock in the transaction the DDL runs in (DDL is transactional there). */
export function lockedSchema<T>(
  knex: Knex,
  dialect: RelationalDialect,
  fn: (runner: SchemaRunner) => Promise<T>,
): Promise<T> {
  return knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [SCHEMA_LOCK_NAME]);
    return fn(knexRunner(trx, dialect));
  });
}
