/**
 * Knex instances for the relational suites, on the harness databases (test/harness/relational.ts).
 * SQLite in memory is one database per connection; suites that need two connections to the same
 * database (concurrency, reopen) use a SQLite file instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { knexConfig, knexFor, type RelationalEngine } from '../../harness/relational';
import { connect, type Model, type StoreContext } from '../../../src';
import { RelationalStore, type RelationalStoreOptions } from '../../../src/providers/relational';

export { describeEngines, RELATIONAL_ENGINES, type RelationalEngine } from '../../harness/relational';

/** A table prefix unique to this suite and engine run (tables of parallel suites never meet). */
export function prefixFor(suite: string): string {
  return `t${process.pid % 10000}_${suite}`;
}

/** Knex factories that reach one database through separate connections. */
export interface SharedDatabase {
  open(overrides?: Partial<Knex.Config>): Knex;
  cleanup(): void;
}

export function sharedDatabase(engine: RelationalEngine): SharedDatabase {
  if (engine !== 'sqlite') {
    return { open: (overrides = {}) => knexFor(engine, overrides), cleanup: () => undefined };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-rel-'));
  const filename = path.join(dir, 'db.sqlite');
  return {
    open: (overrides = {}) => knex({ ...knexConfig('sqlite'), connection: { filename }, ...overrides }),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A controllable clock for boundary tests. */
export class TestClock {
  constructor(public nowMs: number = Date.UTC(2030, 0, 1, 12, 0, 0)) {}
  readonly read = (): Date => new Date(this.nowMs);
  at(ms: number): this {
    this.nowMs = ms;
    return this;
  }
  advance(seconds: number): this {
    this.nowMs += seconds * 1000;
    return this;
  }
}

export async function connectRelational(
  model: Model,
  db: Knex,
  options: Omit<RelationalStoreOptions, 'knex'> = {},
): Promise<StoreContext> {
  return connect(model, new RelationalStore({ logger: { warn: () => undefined }, ...options, knex: db }));
}

/** Drops the suite's tables (a run database is shared by every suite). */
export async function dropTables(db: Knex, model: Model): Promise<void> {
  for (const entity of model.entities) await db.schema.dropTableIfExists(entity.collection);
}

/**
 * The usual suite set-up: a knex on the harness database, the suite's tables dropped, the model
 * connected with TTL emulation and its tables created; all of it undone after the suite.
 * `opened` receives the knex and the store context once beforeAll has run.
 */
export function useEmulatedStore(
  engine: RelationalEngine,
  model: Model,
  opened: (suite: { knex: Knex; db: StoreContext }) => void,
  options: { clock?: () => Date; knex?: Partial<Knex.Config> } = {},
): void {
  let suite: { knex: Knex; db?: StoreContext } | undefined;
  beforeAll(async () => {
    const db = knexFor(engine, options.knex);
    suite = { knex: db };
    await dropTables(db, model);
    suite.db = await connectRelational(model, db, {
      ttl: 'emulate',
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await suite.db.ensureCollections();
    opened({ knex: db, db: suite.db });
  });
  afterAll(async () => {
    if (!suite) return;
    await suite.db?.close();
    await dropTables(suite.knex, model);
    await suite.knex.destroy();
  });
}
