import { driverOptions, type UrlOptions } from '../../core/store-url';
import { RELATIONAL_TTL_MODES } from './options';

/** lifespan's own option of every relational URL: `?ttl=ignore|emulate|reject`. */
export const TTL_URL_OPTION: UrlOptions = { ttl: { owner: 'lifespan', values: RELATIONAL_TTL_MODES } };

/**
 * What node-postgres reads from a connection URL: pg-connection-string copies every query option
 * into the client's settings, and pg uses these (its ConnectionParameters, pg 8; the ssl* ones
 * are pg-connection-string's). `database` is not here: the URL's path always overrides it.
 */
export const PG_URL_OPTIONS: UrlOptions = driverOptions([
  'application_name',
  'binary',
  'client_encoding',
  'fallback_application_name',
  'host',
  'idle_in_transaction_session_timeout',
  'lock_timeout',
  'options',
  'password',
  'port',
  'query_timeout',
  'replication',
  'ssl',
  'sslcert',
  'sslkey',
  'sslmode',
  'sslnegotiation',
  'sslrootcert',
  'statement_timeout',
  'user',
]);

/**
 * What mysql2 reads from a connection URL: each query option becomes a connection option (its
 * value read as JSON when it parses), and mysql2 3 ignores, with a warning, any option outside
 * its list; host, port, user, password and database come from the URL itself.
 */
export const MYSQL_URL_OPTIONS: UrlOptions = driverOptions([
  'bigNumberStrings',
  'charset',
  'charsetNumber',
  'compress',
  'connectAttributes',
  'connectTimeout',
  'dateStrings',
  'debug',
  'decimalNumbers',
  'disableEval',
  'enableCleartextPlugin',
  'enableKeepAlive',
  'flags',
  'insecureAuth',
  'jsonStrings',
  'keepAliveInitialDelay',
  'localAddress',
  'maxPreparedStatements',
  'multipleStatements',
  'namedPlaceholders',
  'nestTables',
  'password1',
  'password2',
  'password3',
  'rowsAsArray',
  'socketPath',
  'ssl',
  'stringifyObjects',
  'supportBigNumbers',
  'timezone',
  'trace',
]);
