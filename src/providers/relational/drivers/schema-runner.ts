import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';
import { sqlFamily } from '../families/by-dialect';
import type { RelationalDialect } from '../families/dialects';

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
