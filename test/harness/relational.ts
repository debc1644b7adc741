/**
 * knex instances for the relational engines of the harness, so that suites can be parameterised by
 * engine: `describeEngines('purge', (engine) => { const db = knexFor(engine); ... })`.
 *
 * - sqlite: in-memory better-sqlite3 (one connection, so one database), useNullAsDefault.
 * - postgres: PG_URL, the fresh lifespan_test_* database globalSetup created for this run.
 * - mariadb: MYSQL_URL, likewise.
 * Each call returns a new Knex instance: destroy it in afterAll (`await db.destroy()`).
 */
import knex, { type Knex } from 'knex';
import { describeStore, requireStore } from './stores';

export type RelationalEngine = 'sqlite' | 'postgres' | 'mariadb';
export const RELATIONAL_ENGINES: readonly RelationalEngine[] = ['sqlite', 'postgres', 'mariadb'];

function envUrl(name: 'PG_URL' | 'MYSQL_URL'): string {
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set: the jest globalSetup (test/harness/global-setup.ts) did not run`);
  return url;
}

/** The knex config for an engine (exported for suites that need to tweak it before calling knex()). */
export function knexConfig(engine: RelationalEngine): Knex.Config {
  switch (engine) {
    case 'sqlite':
      return { client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true };
    case 'postgres':
      return { client: 'pg', connection: envUrl('PG_URL'), pool: { min: 0, max: 4 } };
    case 'mariadb':
      return { client: 'mysql2', connection: envUrl('MYSQL_URL'), pool: { min: 0, max: 4 } };
  }
}

/** A new Knex instance for the harness database of `engine`; throws with the reason when it is not up. */
export function knexFor(engine: RelationalEngine, overrides: Partial<Knex.Config> = {}): Knex {
  requireStore(engine);
  return knex({ ...knexConfig(engine), ...overrides });
}

/** One describe block per relational engine (via describeStore, so a left-out engine prints why). */
export function describeEngines(title: string, fn: (engine: RelationalEngine) => void): void {
  for (const engine of RELATIONAL_ENGINES) {
    describeStore(engine, `${title} [${engine}]`, () => fn(engine));
  }
}
