import type { Model } from '../../model/types';
import type { Store, StoreSession } from '../contract';
import { compileSchema } from './compile';
import type { RelationalDialect } from './families/dialects';
import { describeKnex, offlineDialect, offlineDialectGuessed, openExecutor } from './drivers/connection';
import { checkStoreOptions, type CheckedOptions, type RelationalStoreOptions } from './options';
import { RelationalSession } from './session';

/**
 * `new RelationalStore({ knex, ttl: 'ignore' | 'emulate' | 'reject', clock?, logger? })`:
 * SQLite (better-sqlite3), PostgreSQL (pg) or MariaDB/MySQL (mysql2) through the caller's knex.
 */
export class RelationalStore implements Store {
  readonly name = 'relational' as const;
  private readonly options: CheckedOptions;

  constructor(options: RelationalStoreOptions) {
    this.options = checkStoreOptions(options);
  }

  /** 'ignore', 'emulate' or 'reject'. */
  get ttl(): CheckedOptions['ttl'] {
    return this.options.ttl;
  }

  /**
   * What offline explain should assume for this store, without a connection: its TTL mode and
   * the SQL dialect of its knex (undefined for a driver lifespan does not support; `guessed` when
   * knex does not say MySQL or MariaDB).
   */
  get explainOptions(): {
    readonly ttl: CheckedOptions['ttl'];
    readonly dialect: RelationalDialect | undefined;
    readonly guessed: boolean;
  } {
    const { knex } = this.options;
    return { ttl: this.options.ttl, dialect: offlineDialect(knex), guessed: offlineDialectGuessed(knex) };
  }

  describe(): string {
    return `${describeKnex(this.options.knex)} (ttl: ${this.options.ttl})`;
  }

  /** Compiles the model for the database behind knex; 'reject' mode fails here, naming every TTL entity. */
  async open(model: Model): Promise<StoreSession> {
    const executor = await openExecutor(this.options.knex);
    try {
      const schema = compileSchema(model, executor.dialect, this.options.ttl);
      return new RelationalSession(model, schema, this.options, executor, this.describe());
    } catch (error) {
      executor.close();
      throw error;
    }
  }
}
