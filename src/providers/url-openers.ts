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
const OPENERS: Record<string, () => UrlOpener> = {
  'sqlite:': () => load('./relational/from-url', 'openRelationalUrl'),
  'postgres:': () => load('./relational/from-url', 'openRelationalUrl'),
  'postgresql:': () => load('./relational/from-url', 'openRelationalUrl'),
  'mysql:': () => load('./relational/from-url', 'openRelationalUrl'),
  'mariadb:': () => load('./relational/from-url', 'openRelationalUrl'),
  'cassandra:': () => load('./cassandra/from-url', 'openCassandraUrl'),
  'mongodb:': () => load('./mongodb/from-url', 'openMongoUrl'),
  'mongodb+srv:': () => load('./mongodb/from-url', 'openMongoUrl'),
  'cosmos:': () => load('./cosmos/from-url', 'openCosmosUrl'),
  'redis:': () => load('./redis/from-url', 'openRedisUrl'),
  'rediss:': () => load('./redis/from-url', 'openRedisUrl'),
};

export function openerFor(url: string): UrlOpener {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase();
  const load = scheme ? OPENERS[scheme] : undefined;
  if (!load) {
    // Only a recognised scheme shape is repeated: the rest of an unknown URL may be a password.
    const what = scheme && /^[a-z][a-z0-9+.-]{0,20}:$/i.test(scheme) ? `'${scheme}' URLs` : 'a URL without a scheme';
    throw new LifespanError('CLI_UNKNOWN_URL', `cannot open ${what}`, {
      hint: `use one of: ${Object.keys(OPENERS).join(' ')} (e.g. sqlite:./dev.db, postgres://user@host/db, cassandra://host:9042/keyspace)`,
    });
  }
  return load();
}
