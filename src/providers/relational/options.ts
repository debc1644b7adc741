import type { Knex } from 'knex';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';

/**
 * What `@TimeToLive` does on a relational store, which has no native row expiry:
 * 'ignore' (default) keeps no expiry and says so, 'reject' refuses TTL entities,
 * 'emulate' keeps an `expires_at` per row, filters it on every read and purges on request.
 */
export type RelationalTtlMode = 'ignore' | 'emulate' | 'reject';
export const RELATIONAL_TTL_MODES: readonly RelationalTtlMode[] = ['ignore', 'emulate', 'reject'];

/** Where the warnings of 'ignore' mode (and of ensureCollections) go. */
export interface RelationalLogger {
  warn(message: string): void;
}

export interface RelationalStoreOptions {
  /** The caller's knex instance (better-sqlite3, pg or mysql2 client); lifespan never destroys it. */
  readonly knex: Knex;
  readonly ttl?: RelationalTtlMode;
  /**
   * Supplies "now" for expiry (tests, scheduled jobs). Default: the database's own clock, so
   * client clock skew does not shift lifetimes.
   */
  readonly clock?: () => Date;
  /** Default: console. */
  readonly logger?: RelationalLogger;
}

export const RELATIONAL_STORE = 'relational';

export function checkTtlMode(value: unknown): RelationalTtlMode {
  if (value === undefined) return 'ignore';
  if (typeof value === 'string' && (RELATIONAL_TTL_MODES as readonly string[]).includes(value)) {
    return value as RelationalTtlMode;
  }
  throw new LifespanError('STORE_BAD_OPTION', `ttl ${showValue(value)} is not a relational TTL mode`, {
    store: RELATIONAL_STORE,
    hint: "use ttl: 'ignore' (default), 'emulate' or 'reject'",
  });
}

export interface CheckedOptions {
  readonly knex: Knex;
  readonly ttl: RelationalTtlMode;
  readonly clock: (() => Date) | undefined;
  readonly logger: RelationalLogger;
}

export function checkStoreOptions(options: RelationalStoreOptions | undefined): CheckedOptions {
  const given = (options ?? {}) as Partial<RelationalStoreOptions>;
  const knex = given.knex as unknown;
  if (typeof knex !== 'function' || typeof (knex as { client?: unknown }).client !== 'object') {
    throw new LifespanError('STORE_BAD_OPTION', 'the knex option is missing or is not a knex instance', {
      store: RELATIONAL_STORE,
      hint: "pass your knex instance: new RelationalStore({ knex: knex({ client: 'better-sqlite3', ... }) })",
    });
  }
  if (given.clock !== undefined && typeof given.clock !== 'function') {
    throw new LifespanError('STORE_BAD_OPTION', `clock ${showValue(given.clock)} is not a function`, {
      store: RELATIONAL_STORE,
      hint: 'pass a function returning the current Date, e.g. clock: () => new Date()',
    });
  }
  const logger = given.logger ?? console;
  if (typeof (logger as Partial<RelationalLogger>).warn !== 'function') {
    throw new LifespanError('STORE_BAD_OPTION', 'logger has no warn(message) method', {
      store: RELATIONAL_STORE,
      hint: 'pass an object with a warn method, e.g. logger: console',
    });
  }
  return { knex: given.knex as Knex, ttl: checkTtlMode(given.ttl), clock: given.clock, logger };
}
