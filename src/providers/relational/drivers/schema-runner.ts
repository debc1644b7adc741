import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { sqlFamily } from '../families/by-dialect';
import type { RelationalDialect } from '../families/dialects';
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
 * SQLite schema work runs on the very connection the executor uses, synchronously per statement:
 * inside the executor's exclusive() (schema changes), where `db` is held.
 */
export function sqliteRunner(db: BetterSqlite3.Database): SchemaRunner {
  return {
    rows: async (sql, bindings = []) => db.prepare(sql).all(...bindings) as Record<string, unknown>[],
    exec: async (sql) => {
      db.exec(sql);
    },
  };
}

/**
 * SQLite reads outside a schema change (inspection, counts, forecasts): each statement waits, as
 * the executor's own do, until no transaction holds the connection — neither lifespan's nor one
 * the application opened, whose uncommitted rows it would otherwise read.
 */
export function sqliteSharedRunner(executor: SqliteExecutor): SchemaRunner {
  // sqliteRunner's statements run synchronously when called: within the executor's turn.
  return {
    rows: async (sql, bindings) => executor.whenFree((db) => sqliteRunner(db).rows(sql, bindings)),
    exec: async (sql) => executor.whenFree((db) => sqliteRunner(db).exec(sql)),
  };
}
