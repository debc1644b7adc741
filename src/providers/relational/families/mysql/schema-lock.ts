import type { Knex } from 'knex';
import { StoreError } from '../../../../errors';
import { knexRunner, type SchemaRunner } from '../../drivers/schema-runner';
import type { RelationalDialect } from '../dialects';
import { RELATIONAL_STORE } from '../../options';
import { SCHEMA_LOCK_NAME } from '../../schema/names';

const MYSQL_LOCK_WAIT_SECONDS = 60;

/** MariaDB/MySQL: GET_LOCK, named per database (DDL commits implicitly, so no transaction holds it). */
export async function lockedSchema<T>(
  knex: Knex,
  dialect: RelationalDialect,
  fn: (runner: SchemaRunner) => Promise<T>,
): Promise<T> {
  // A transaction object pins one connection: GET_LOCK belongs to the session that took it.
  const trx = await knex.transaction();
  const runner = knexRunner(trx, dialect);
  try {
    const [row] = await runner.rows("SELECT GET_LOCK(CONCAT(?, ':', DATABASE()), ?) AS got", [
      SCHEMA_LOCK_NAME,
      MYSQL_LOCK_WAIT_SECONDS,
    ]);
    if (Number(row?.['got']) !== 1) {
      throw new StoreError(
        'RELATIONAL_SCHEMA_LOCK',
        `could not take the schema lock within ${MYSQL_LOCK_WAIT_SECONDS}s`,
        {
          store: RELATIONAL_STORE,
          hint: 'another process is changing the schema; try again',
        },
      );
    }
    try {
      return await fn(runner);
    } finally {
      await runner.rows("SELECT RELEASE_LOCK(CONCAT(?, ':', DATABASE())) AS released", [SCHEMA_LOCK_NAME]);
    }
  } finally {
    await trx.commit();
  }
}
