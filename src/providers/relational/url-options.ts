import { driverOptions, type UrlOptions } from '../../core/store-url';
import { RELATIONAL_TTL_MODES } from './options';

/** lifespan's own option of every relational URL: `?ttl=ignore|emulate|reject`. */
export const TTL_URL_OPTION: UrlOptions = { ttl: { owner: 'lifespan', values: RELATIONAL_TTL_MODES } };

/** What mysql2 does with debug and trace: it prints packets with console.log, past the CLI's masking. */
const PRINTS_PACKETS =
  'mysql2 prints every packet (passwords included) to the console with it, past the masking of secrets';

/**
 * What node-postgres reads from a connection URL: pg-connection-string (2.6, the copy knex 3
 * parses with) copies every query option into the client's settings, and pg 8 uses these (its
 * Client and ConnectionParameters; the ssl* ones are pg-connection-string's). `database` is not
 * here: the URL's path always overrides it. ssl is true for true or 1 and false for 0; any other
 * text, `false` too, stays a string and so turns SSL on: refused. sslmode and sslnegotiation
 * take the words those two packages know (any other sslmode would verify silently).
 */
export const PG_URL_OPTIONS: UrlOptions = driverOptions(
  [
    'application_name',
    'binary',
    'client_encoding',
    'connectionTimeoutMillis',
    'enableChannelBinding',
    'fallback_application_name',
    'host',
    'idle_in_transaction_session_timeout',
    'keepAlive',
    'keepAliveInitialDelayMillis',
    'lock_timeout',
    'options',
    'port',
    'query_timeout',
    'replication',
    'sslcert',
    'sslkey',
    'sslrootcert',
    'statement_timeout',
    'user',
  ],
  {
    password: { secret: true },
    ssl: { values: ['true', '1', '0'] },
    sslmode: { values: ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'] },
    sslnegotiation: { values: ['postgres', 'direct'] },
  },
);

/**
 * What mysql2 reads from a connection URL: each query option becomes a connection option (its
 * value read as JSON when it parses), and mysql2 3 ignores, with a warning, any option outside
 * its list; host, port, user, password and database come from the URL itself.
 */
export const MYSQL_URL_OPTIONS: UrlOptions = driverOptions(
  [
    'bigNumberStrings',
    'charset',
    'charsetNumber',
    'compress',
    'connectAttributes',
    'connectTimeout',
    'dateStrings',
    'decimalNumbers',
    'disableEval',
    'enableCleartextPlugin',
    'enableKeepAlive',
    'flags',
    'gracefulEnd',
    'insecureAuth',
    'jsonStrings',
    'keepAliveInitialDelay',
    'localAddress',
    'maxPreparedStatements',
    'multipleStatements',
    'namedPlaceholders',
    'nestTables',
    'rowsAsArray',
    'socketPath',
    'stringifyObjects',
    'supportBigNumbers',
    'timezone',
  ],
  {
    password1: { secret: true },
    password2: { secret: true },
    password3: { secret: true },
    passwordSha1: { secret: true },
    ssl: { check: mysqlSsl },
    debug: { refused: PRINTS_PACKETS },
    trace: { refused: PRINTS_PACKETS },
  },
);

/** mysql2 3's lib/constants/ssl_profiles.js. */
const MYSQL_SSL_PROFILES: readonly string[] = ['Amazon RDS'];

/**
 * mysql2 reads ssl= as JSON when it parses (an object of TLS options, or false) and as the name
 * of one of its SSL profiles otherwise, which it looks up only when it connects: checked here.
 */
function mysqlSsl(value: string): string | undefined {
  let read: unknown = value;
  try {
    read = JSON.parse(value);
  } catch {
    // Not JSON: a profile name.
  }
  if (read === false || (typeof read === 'object' && read !== null && !Array.isArray(read))) return undefined;
  if (typeof read === 'string' && MYSQL_SSL_PROFILES.includes(read)) return undefined;
  return `is neither a JSON object of TLS options nor false nor one of mysql2's SSL profiles (${MYSQL_SSL_PROFILES.join(', ')})`;
}
