import type { Knex } from 'knex';
import { badStoreUrl, checkWhatwgUrl, decodedPart, parseStoreUrl, type StoreUrlForm } from '../../core/store-url';
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
  const knex =
    client === 'better-sqlite3'
      ? madeKnex(
          { client, connection: { filename: sqliteFile(parsed.path) }, useNullAsDefault: true, log: QUIET },
          form,
        )
      : madeKnex(
          {
            client,
            connection: serverUrl(parsed.driverUrl, parsed, client, form),
            pool: { min: 0, max: 4 },
            log: QUIET,
          },
          form,
        );
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
 * The URL knex is given: one it can read (knex takes a URL that WHATWG URL cannot parse for a
 * file name), naming its database (without one, PostgreSQL and MariaDB would pick the server's
 * default database, or none, silently), decoded as pg-connection-string decodes it (a bad escape
 * there is a raw URIError). A PostgreSQL URL without a host but with ?host= (a Unix socket
 * folder) gets a stand-in host, which ?host= overrides, as pg-connection-string's own reading
 * of `user:pw@/db` does. mysql2 wants `mysql://`; `mariadb://` is accepted as a synonym.
 */
function serverUrl(
  driverUrl: string,
  parsed: { path: string; hosts: string },
  client: 'pg' | 'mysql2',
  form: StoreUrlForm,
): string {
  const url =
    client === 'mysql2'
      ? driverUrl.replace(/^mariadb:/i, 'mysql:')
      : parsed.hosts === '' && /[?&]host=/.test(driverUrl)
        ? driverUrl.replace(/@\//, '@localhost/')
        : driverUrl;
  checkWhatwgUrl(url, form);
  if (parsed.path === '') {
    throw badStoreUrl(
      STORE,
      `${form.what} names no database, so the server's default one would be used`,
      `add the database after the host: ${form.example}`,
    );
  }
  decodedPart(parsed.path, 'database', form);
  return url;
}

/** The files pg-connection-string reads while knex is made, by the option that names them. */
const FILE_OPTIONS = ['sslcert', 'sslkey', 'sslrootcert'] as const;

/**
 * knex made from `config`: what knex or the driver's URL reader throws while reading the URL
 * (pg-connection-string reads the ssl files here) is a mistake in the URL, named by its option.
 */
function madeKnex(config: Knex.Config, form: StoreUrlForm): Knex {
  const makeKnex = require('knex') as (config: Knex.Config) => Knex;
  try {
    return makeKnex(config);
  } catch (error) {
    const failed = (error as { path?: unknown }).path;
    const options = typeof config.connection === 'string' ? new URL(config.connection).searchParams : undefined;
    const option = FILE_OPTIONS.find((name) => failed !== undefined && options?.get(name) === failed);
    const code = (error as { code?: unknown }).code;
    throw badStoreUrl(
      STORE,
      option
        ? `cannot read the file ${option} of ${form.what} names${typeof code === 'string' ? ` (${code})` : ''}`
        : `${form.what} could not be read: ${(error as Error).message}`,
      option ? `check the path of ${option}: it must be a readable file` : `write it as ${form.example}`,
      error,
    );
  }
}
