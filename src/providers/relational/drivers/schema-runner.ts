import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { StoreError } from '../../../errors';
import { sqlFamily, type DialectFamily, type RelationalDialect } from '../families/dialects';
import { wrapDriverError } from './driver-errors';
import type { Executor } from './executor';
import { RELATIONAL_STORE } from '../options';
import type { SqliteExecutor } from './sqlite-executor';

/** Runs introspection queries and DDL: knex for PostgreSQL and MariaDB/MySQL, the raw connection for SQLite. */
export interface SchemaRunner {
  rows(sql: string, bindings?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  exec(sql: string): Promise<void>;
}

export function knexRunner(knex: Knex | Knex.Transaction, dialect: RelationalDialect): SchemaRunner {
  const family = sqlFamily(dialect);
  return {
    async rows(sql, bindings = []) {
      const raw = knex.raw(sql, [...bindings] as Knex.RawBinding[]);
      return family.rowsOf(await (family.rawQueryOptions ? raw.options(family.rawQueryOptions) : raw));
    },
    async exec(sql) {
      await knex.raw(sql);
    },
  };
}

/**
 * SQLite schema work runs on the very connection the executor uses (knex could hand a second
 * one out if the caller configured a larger pool), synchronously per statement.
 */
export function sqliteRunner(db: BetterSqlite3.Database): SchemaRunner {
  return {
    rows: async (sql, bindings = []) => db.prepare(sql).all(...bindings) as Record<string, unknown>[],
    exec: async (sql) => {
      db.exec(sql);
    },
  };
}

const LOCK_NAME = 'lifespan:schema';
const MYSQL_LOCK_WAIT_SECONDS = 60;

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
    return await SCHEMA_ACCESS[sqlFamily(executor.dialect).name].locked(knex, executor, fn);
  } catch (error) {
    throw wrapDriverError(error, undefined, 'a schema change');
  }
}

function sqliteLocked<T>(executor: SqliteExecutor, fn: (runner: SchemaRunner) => Promise<T>): Promise<T> {
  return executor.exclusive(async () => {
    const db = executor.connection;
    await beginImmediate(db);
    try {
      const result = await fn(sqliteRunner(db));
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  });
}

const SQLITE_LOCK_WAIT_MS = 30_000;
const SQLITE_LOCK_RETRY_MS = 20;

/**
 * BEGIN IMMEDIATE without better-sqlite3's busy wait, which sleeps synchronously: a second
 * connection of the same process waiting that way would stall the event loop and with it the
 * holder of the lock. Retry with the busy timeout off, yielding in between.
 */
async function beginImmediate(db: BetterSqlite3.Database): Promise<void> {
  const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
  const previous = Number(db.pragma('busy_timeout', { simple: true }));
  for (;;) {
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
    } finally {
      db.pragma(`busy_timeout = ${previous}`);
    }
    await new Promise((resolve) => setTimeout(resolve, SQLITE_LOCK_RETRY_MS));
  }
}

async function mysqlLocked<T>(
  knex: Knex,
  dialect: RelationalDialect,
  fn: (runner: SchemaRunner) => Promise<T>,
): Promise<T> {
  // A transaction object pins one connection: GET_LOCK belongs to the session that took it.
  const trx = await knex.transaction();
  const runner = knexRunner(trx, dialect);
  try {
    const [row] = await runner.rows("SELECT GET_LOCK(CONCAT(?, ':', DATABASE()), ?) AS got", [
      LOCK_NAME,
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
      await runner.rows("SELECT RELEASE_LOCK(CONCAT(?, ':', DATABASE())) AS released", [LOCK_NAME]);
    }
  } finally {
    await trx.commit();
  }
}

/** Where each family runs schema work, and how it holds the schema lock meanwhile. */
interface SchemaAccess {
  runner(knex: Knex, executor: Executor): SchemaRunner;
  locked<T>(knex: Knex, executor: Executor, fn: (runner: SchemaRunner) => Promise<T>): Promise<T>;
}

const SCHEMA_ACCESS: Record<DialectFamily, SchemaAccess> = {
  sqlite: {
    runner: (_knex, executor) => sqliteRunner((executor as SqliteExecutor).connection),
    locked: (_knex, executor, fn) => sqliteLocked(executor as SqliteExecutor, fn),
  },
  postgres: {
    runner: (knex, executor) => knexRunner(knex, executor.dialect),
    locked: (knex, executor, fn) =>
      knex.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [LOCK_NAME]);
        return fn(knexRunner(trx, executor.dialect));
      }),
  },
  mysql: {
    runner: (knex, executor) => knexRunner(knex, executor.dialect),
    locked: (knex, executor, fn) => mysqlLocked(knex, executor.dialect, fn),
  },
};

/** The runner for schema reads outside the lock: SQLite's own connection, knex elsewhere. */
export function schemaRunnerFor(knex: Knex, executor: Executor): SchemaRunner {
  return SCHEMA_ACCESS[sqlFamily(executor.dialect).name].runner(knex, executor);
}
