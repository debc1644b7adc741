import type { Knex } from 'knex';
import { badStoreUrl, parseStoreUrl, type StoreUrlForm } from '../../core/store-url';
import type { OpenedStore } from '../connection-target';
import type { RelationalTtlMode } from './options';
import { RelationalStore } from './store';
import { MYSQL_URL_OPTIONS, PG_URL_OPTIONS, TTL_URL_OPTION } from './url-options';

const STORE = 'relational';

/** knex client per URL scheme; mariadb speaks the MySQL protocol through mysql2. */
const CLIENTS: Record<string, 'better-sqlite3' | 'pg' | 'mysql2'> = {
  'sqlite:': 'better-sqlite3',
  'postgres:': 'pg',
  'postgresql:': 'pg',
  'mysql:': 'mysql2',
  'mariadb:': 'mysql2',
};

/** The form of each client's URLs: what the opener reads, what it passes on. */
function formOf(scheme: string, client: 'better-sqlite3' | 'pg' | 'mysql2'): StoreUrlForm {
  const what = `the ${scheme} URL`;
  if (client === 'better-sqlite3') {
    return { store: STORE, what, example: 'sqlite:./dev.db?ttl=emulate', authority: false, options: TTL_URL_OPTION };
  }
  return {
    store: STORE,
    what,
    example: `${scheme}//user:password@host:port/database`,
    authority: true,
    options: { ...TTL_URL_OPTION, ...(client === 'pg' ? PG_URL_OPTIONS : MYSQL_URL_OPTIONS) },
  };
}

/**
 * knex logs a failed connection attempt with the driver's stack to the console; the CLI reports
 * the same failure once, as a typed error, so knex's own log stays silent.
 */
const QUIET = { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined };

/**
 * Opens `sqlite:./dev.db`, `postgres://user:pass@host/db` or `mysql://…` for the CLI, with
 * lifespan's own `?ttl=ignore|emulate|reject` option taken off before knex sees the URL.
 */
export async function openRelationalUrl(url: string): Promise<OpenedStore> {
  const scheme = /^[a-z]+:/i.exec(url)?.[0].toLowerCase() ?? '';
  const client = CLIENTS[scheme];
  if (!client) {
    throw badStoreUrl(
      STORE,
      `'${scheme}' is not a relational URL`,
      'use sqlite:./file.db, postgres://user@host/db or mysql://user@host/db',
    );
  }
  const form = formOf(scheme, client);
  const parsed = parseStoreUrl(url, form);
  const ttl = parsed.own.get('ttl') as RelationalTtlMode | undefined;
  // Everything is checked before knex is made: a failure leaves no pool behind.
  const makeKnex = require('knex') as (config: Knex.Config) => Knex;
  let knex: Knex;
  if (client === 'better-sqlite3') {
    knex = makeKnex({ client, connection: { filename: sqliteFile(parsed.path) }, useNullAsDefault: true, log: QUIET });
  } else {
    checkServerUrl(parsed.driverUrl, parsed.path, form);
    knex = makeKnex({ client, connection: mysqlUrl(parsed.driverUrl, client), pool: { min: 0, max: 4 }, log: QUIET });
  }
  return {
    store: new RelationalStore({ knex, ...(ttl ? { ttl } : {}) }),
    secrets: parsed.secrets,
    dispose: () => knex.destroy(),
  };
}

/** The file of a sqlite: URL (`sqlite:./dev.db`, `sqlite://./dev.db`, `sqlite::memory:`). */
function sqliteFile(path: string): string {
  if (path === '') {
    throw badStoreUrl(STORE, 'the sqlite: URL names no file', 'write sqlite:./dev.db (or sqlite::memory:)');
  }
  return path;
}

/**
 * A server URL the drivers can read, naming its database: without one, PostgreSQL and MariaDB
 * would pick the server's default database (or none) silently. The URL is not repeated in a
 * message: it may hold a password.
 */
function checkServerUrl(driverUrl: string, path: string, form: StoreUrlForm): void {
  try {
    new URL(driverUrl);
  } catch {
    throw badStoreUrl(
      STORE,
      `${form.what} does not parse (the URL is not repeated here: it may hold a password)`,
      `write it as ${form.example}, with special characters in the password percent-encoded`,
    );
  }
  if (path === '') {
    throw badStoreUrl(
      STORE,
      `${form.what} names no database, so the server's default one would be used`,
      `add the database after the host: ${form.example}`,
    );
  }
}

/** mysql2 wants `mysql://`; `mariadb://` is accepted as a synonym. */
function mysqlUrl(url: string, client: string): string {
  return client === 'mysql2' ? url.replace(/^mariadb:/i, 'mysql:') : url;
}
