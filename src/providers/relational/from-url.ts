import type { Knex } from 'knex';
import { LifespanError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { RELATIONAL_TTL_MODES, type RelationalTtlMode } from './options';
import { RelationalStore } from './store';

const STORE = 'relational';

/** knex client per URL scheme; mariadb speaks the MySQL protocol through mysql2. */
const CLIENTS: Record<string, string> = {
  'sqlite:': 'better-sqlite3',
  'postgres:': 'pg',
  'postgresql:': 'pg',
  'mysql:': 'mysql2',
  'mariadb:': 'mysql2',
};

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
  const { base, ttl } = splitTtlOption(url);
  const scheme = /^[a-z]+:/i.exec(base)?.[0].toLowerCase() ?? '';
  const client = CLIENTS[scheme];
  if (!client) {
    throw new LifespanError('RELATIONAL_URL_SCHEME', `'${scheme}' is not a relational URL`, {
      store: STORE,
      hint: 'use sqlite:./file.db, postgres://user@host/db or mysql://user@host/db',
    });
  }
  // Everything is checked before knex is made: a failure leaves no pool behind.
  const filename = client === 'better-sqlite3' ? sqliteFile(base) : '';
  const password = client === 'better-sqlite3' ? '' : serverPassword(base, scheme);
  const makeKnex = require('knex') as (config: Knex.Config) => Knex;
  const knex =
    client === 'better-sqlite3'
      ? makeKnex({ client, connection: { filename }, useNullAsDefault: true, log: QUIET })
      : makeKnex({ client, connection: mysqlUrl(base, client), pool: { min: 0, max: 4 }, log: QUIET });
  return {
    store: new RelationalStore({ knex, ...(ttl ? { ttl } : {}) }),
    secrets: password ? [password] : [],
    dispose: () => knex.destroy(),
  };
}

function splitTtlOption(url: string): { base: string; ttl: RelationalTtlMode | undefined } {
  const [base = url, query = ''] = url.split('?', 2) as [string, string | undefined];
  const params = new URLSearchParams(query);
  const ttl = params.get('ttl');
  params.delete('ttl');
  if (ttl !== null && !(RELATIONAL_TTL_MODES as readonly string[]).includes(ttl)) {
    throw new LifespanError('RELATIONAL_URL_TTL', `?ttl=${ttl} is not a TTL mode`, {
      store: STORE,
      hint: `use one of: ${RELATIONAL_TTL_MODES.join(', ')}`,
    });
  }
  const rest = params.toString();
  return { base: rest ? `${base}?${rest}` : base, ttl: (ttl ?? undefined) as RelationalTtlMode | undefined };
}

/** The file of a sqlite: URL; query parameters configure nothing in SQLite and never become part of the name. */
function sqliteFile(url: string): string {
  const file = url.replace(/^sqlite:(\/\/)?/i, '').replace(/\?.*$/, '');
  if (file === '') {
    throw new LifespanError('RELATIONAL_URL_NO_FILE', 'the sqlite: URL names no file', {
      store: STORE,
      hint: 'write sqlite:./dev.db (or sqlite::memory:)',
    });
  }
  return file;
}

/**
 * The decoded password of a server URL. A URL that does not parse is a LifespanError that does
 * not repeat the URL (it may hold the password), never the TypeError of `new URL`.
 */
function serverPassword(url: string, scheme: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    throw new LifespanError(
      'RELATIONAL_URL_INVALID',
      `the ${scheme} URL does not parse (the URL is not repeated here: it may hold a password)`,
      {
        store: STORE,
        hint: `write it as ${scheme}//user:password@host:port/database, with special characters in the password percent-encoded`,
      },
    );
  }
}

/** mysql2 wants `mysql://`; `mariadb://` is accepted as a synonym. */
function mysqlUrl(url: string, client: string): string {
  return client === 'mysql2' ? url.replace(/^mariadb:/i, 'mysql:') : url;
}
