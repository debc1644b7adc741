import { LifespanError } from '../errors';
import type { UrlOpener } from './connection-target';

/** Loads an opener lazily; `require` keeps one store's driver from loading for another's URL. */
function load(module: string, name: string): UrlOpener {
  const exports = require(module) as Record<string, UrlOpener | undefined>;
  const opener = exports[name];
  if (!opener) throw new LifespanError('CLI_NO_OPENER', `${module} has no ${name}`);
  return opener;
}

/**
 * URL scheme → opener, loaded lazily so a user of one store never loads another store's driver.
 * A constant table, not a registry: adding a store adds its schemes here.
 */
const RELATIONAL = { store: 'relational', open: () => load('./relational/from-url', 'openRelationalUrl') };
const MONGODB = { store: 'mongodb', open: () => load('./mongodb/from-url', 'openMongoUrl') };
const REDIS = { store: 'redis', open: () => load('./redis/from-url', 'openRedisUrl') };
const OPENERS: Record<string, { readonly store: string; readonly open: () => UrlOpener }> = {
  'sqlite:': RELATIONAL,
  'postgres:': RELATIONAL,
  'postgresql:': RELATIONAL,
  'mysql:': RELATIONAL,
  'mariadb:': RELATIONAL,
  'cassandra:': { store: 'cassandra', open: () => load('./cassandra/from-url', 'openCassandraUrl') },
  'mongodb:': MONGODB,
  'mongodb+srv:': MONGODB,
  'cosmos:': { store: 'cosmos', open: () => load('./cosmos/from-url', 'openCosmosUrl') },
  'redis:': REDIS,
  'rediss:': REDIS,
};

function entryFor(url: string): { readonly store: string; readonly open: () => UrlOpener } {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase();
  const entry = scheme ? OPENERS[scheme] : undefined;
  if (!entry) {
    // Only a recognised scheme shape is repeated: the rest of an unknown URL may be a password.
    const what = scheme && /^[a-z][a-z0-9+.-]{0,20}:$/i.test(scheme) ? `'${scheme}' URLs` : 'a URL without a scheme';
    throw new LifespanError('CLI_UNKNOWN_URL', `cannot open ${what}`, {
      hint: `use one of: ${Object.keys(OPENERS).join(' ')} (e.g. sqlite:./dev.db, postgres://user@host/db, cassandra://host:9042/keyspace)`,
    });
  }
  return entry;
}

export function openerFor(url: string): UrlOpener {
  return entryFor(url).open();
}

/** The store a URL opens: the `store` its connection errors name. */
export function storeOfUrl(url: string): string {
  return entryFor(url).store;
}
