/**
 * Every code lifespan raises, in one table: the error class that carries it (`family`), the CLI
 * exit code family it maps to (`exit`, read by src/cli/exit-codes.ts) and, as TSDoc, what it
 * means (docs/errors.md is generated from this file by scripts/docs/). `LifespanError.code` is
 * typed by this table, so a code that is not here does not compile.
 */

/** The LifespanError subclass that carries a code; `ModelError` means a problem of a ModelError. */
export type ErrorFamily = 'LifespanError' | 'ModelError' | 'TtlError' | 'UnsupportedTtlError' | 'StoreError';

/** What a CLI run that ends with the code tells a script (see EXIT_CODE_HELP). */
export type ExitFamily = 'usage' | 'model' | 'store' | 'user-code';

export interface ErrorCodeSpec {
  readonly family: ErrorFamily;
  readonly exit: ExitFamily;
}

export const ERROR_CODE_TABLE = {
  // Shared by every store
  /** A class passed to repository()/unitOfWork() is not in the model. */
  UNKNOWN_ENTITY: { family: 'LifespanError', exit: 'model' },
  /** A filter or option names a member the entity does not have. */
  UNKNOWN_MEMBER: { family: 'LifespanError', exit: 'model' },
  /** An argument of the wrong kind (a limit that is not a positive integer, keys that are not an array, …). */
  BAD_ARGUMENT: { family: 'LifespanError', exit: 'usage' },
  /** A member value that does not fit its declared type, or a missing non-nullable value. */
  VALUE_INVALID: { family: 'LifespanError', exit: 'model' },
  /** A key argument without every key member. */
  KEY_INCOMPLETE: { family: 'LifespanError', exit: 'model' },
  /** insert() of a key that already holds a live record. */
  STORE_DUPLICATE_KEY: { family: 'StoreError', exit: 'store' },
  /** A unit of work commits once; after commit() (successful or not) it takes nothing more. */
  UOW_ALREADY_COMMITTED: { family: 'LifespanError', exit: 'model' },
  /** apply() of a plan with a destructive step without allowDestructive. */
  PLAN_DESTRUCTIVE_NOT_ALLOWED: { family: 'LifespanError', exit: 'usage' },
  /** apply()/ensureCollections() of a plan with a blocking conflict. */
  PLAN_CONFLICT: { family: 'LifespanError', exit: 'store' },
  /** ensureCollections() met a step that would make stored records expire; it needs review. */
  ENSURE_NEEDS_REVIEW: { family: 'LifespanError', exit: 'store' },
  /** apply() of a step that makes stored records expire at once, without allowRetroactive. */
  PLAN_RETROACTIVE_NOT_ALLOWED: { family: 'LifespanError', exit: 'usage' },
  /** The store's server cannot be reached (connection refused, unknown host, timeout). */
  STORE_UNREACHABLE: { family: 'StoreError', exit: 'store' },
  /** The server refused the credentials. */
  STORE_AUTH_FAILED: { family: 'StoreError', exit: 'store' },
  /** The database, keyspace or Cosmos database/container named in the connection does not exist. */
  STORE_DATABASE_MISSING: { family: 'StoreError', exit: 'store' },
  /** The SQLite file's folder does not exist (SQLite creates the file, never its folder). */
  STORE_SQLITE_FOLDER_MISSING: { family: 'StoreError', exit: 'store' },
  /** The store's driver package is not installed; the message names the package. */
  STORE_DRIVER_MISSING: { family: 'StoreError', exit: 'store' },
  /** A connection URL option the driver refuses only when it connects (e.g. mysql2 ssl=<unknown profile>): a usage mistake. */
  STORE_URL_OPTION: { family: 'StoreError', exit: 'usage' },
  /** apply() of a plan whose step this store did not make, or whose payload was edited after planning. */
  PLAN_BAD_STEP: { family: 'LifespanError', exit: 'model' },
  /** apply() of a plan made for another store. */
  PLAN_WRONG_STORE: { family: 'LifespanError', exit: 'model' },
  /** checkPlan() on a store whose session cannot judge a plan without applying it (a third-party store). */
  PLAN_CHECK_UNSUPPORTED: { family: 'LifespanError', exit: 'usage' },
  /** purgeExpired() on a store that expires data natively (nothing to purge). */
  PURGE_NOT_EMULATED: { family: 'LifespanError', exit: 'usage' },
  /** purgeExpired() gave up after retrying a deadlock or lock wait; what it purged stays purged, the next run resumes. */
  PURGE_INTERRUPTED: { family: 'StoreError', exit: 'store' },
  /** A relational session used after close(). */
  SESSION_CLOSED: { family: 'LifespanError', exit: 'model' },
  /** The relational driver or server refused a statement; the driver error is the cause. */
  STORE_QUERY_FAILED: { family: 'StoreError', exit: 'store' },

  // The model
  /** A ModelError built without any problem (a defect: a ModelError always lists its problems). */
  MODEL_INVALID: { family: 'ModelError', exit: 'model' },
  /** A key member of a type that cannot be a key. */
  MODEL_BAD_KEY_TYPE: { family: 'ModelError', exit: 'model' },
  /** A collection/table name that is not allowed. */
  MODEL_BAD_NAME: { family: 'ModelError', exit: 'model' },
  /** A field option of the wrong kind (e.g. nullable that is not a boolean). */
  MODEL_BAD_OPTION: { family: 'ModelError', exit: 'model' },
  /** A fluent member selector that does not read exactly one member. */
  MODEL_BAD_SELECTOR: { family: 'ModelError', exit: 'model' },
  /** A decorator used where, or in a form, lifespan cannot read. */
  MODEL_DECORATOR_UNSUPPORTED: { family: 'ModelError', exit: 'model' },
  /** Two different classes with one entity name in the model. */
  MODEL_DUPLICATE_ENTITY: { family: 'ModelError', exit: 'model' },
  /** Two members stored under one name. */
  MODEL_DUPLICATE_NAME: { family: 'ModelError', exit: 'model' },
  /** The per-write expiry field is also the name of a member. */
  MODEL_EXPIRY_FIELD_TAKEN: { family: 'ModelError', exit: 'model' },
  /** An entity without a (partition) key. */
  MODEL_NO_KEY: { family: 'ModelError', exit: 'model' },
  /** A member whose type lifespan cannot tell; declare it. */
  MODEL_NO_TYPE: { family: 'ModelError', exit: 'model' },
  /** A class in the model with neither decorators nor fluent configuration. */
  MODEL_NOT_AN_ENTITY: { family: 'ModelError', exit: 'model' },
  /** A key member declared nullable. */
  MODEL_NULLABLE_KEY: { family: 'ModelError', exit: 'model' },
  /** A created/updated timestamp member that is not a Date. */
  MODEL_TIMESTAMP_NOT_DATE: { family: 'ModelError', exit: 'model' },
  /** An entity with more than one TTL declaration. */
  MODEL_TTL_DECLARED_TWICE: { family: 'ModelError', exit: 'model' },
  /** A TTL declaration with neither a duration nor perWrite. */
  MODEL_TTL_EMPTY: { family: 'ModelError', exit: 'model' },
  /** A TTL that counts from a member that is not a Date. */
  MODEL_TTL_MEMBER_NOT_DATE: { family: 'ModelError', exit: 'model' },
  /** TTL options of the wrong shape (unknown keys, options that throw when read). */
  MODEL_TTL_OPTIONS: { family: 'ModelError', exit: 'model' },
  /** A TTL that counts from a member the entity does not have. */
  MODEL_TTL_UNKNOWN_MEMBER: { family: 'ModelError', exit: 'model' },
  /** A field type lifespan does not know. */
  MODEL_UNKNOWN_TYPE: { family: 'ModelError', exit: 'model' },
  /** explain() asked for a store that is not one of lifespan's stores. */
  EXPLAIN_UNKNOWN_STORE: { family: 'ModelError', exit: 'model' },

  // Durations and per-write TTLs
  /** A duration in years or months, which have no fixed length in seconds. */
  TTL_CALENDAR_UNIT: { family: 'TtlError', exit: 'model' },
  /** An empty duration. */
  TTL_EMPTY: { family: 'TtlError', exit: 'model' },
  /** A duration that is not a whole number of seconds. */
  TTL_FRACTIONAL: { family: 'TtlError', exit: 'model' },
  /** A per-write TTL that mixes 'extend' with other keys. */
  TTL_INVALID_EXTEND: { family: 'TtlError', exit: 'model' },
  /** A duration object with a part that is not a number ≥ 0. */
  TTL_INVALID_PART: { family: 'TtlError', exit: 'model' },
  /** A TTL value of a kind that is not a duration. */
  TTL_INVALID_TYPE: { family: 'TtlError', exit: 'model' },
  /** A duration string without a unit. */
  TTL_NO_UNIT: { family: 'TtlError', exit: 'model' },
  /** A duration that is NaN. */
  TTL_NOT_A_NUMBER: { family: 'TtlError', exit: 'model' },
  /** A duration that is not finite. */
  TTL_NOT_FINITE: { family: 'TtlError', exit: 'model' },
  /** A duration of zero or less where a positive one is needed. */
  TTL_NOT_POSITIVE: { family: 'TtlError', exit: 'model' },
  /** A duration over the largest TTL lifespan accepts (2^31-1 s). */
  TTL_TOO_LARGE: { family: 'TtlError', exit: 'model' },
  /** A duration string in a format lifespan does not read (e.g. ',' as the decimal sign). */
  TTL_UNKNOWN_FORMAT: { family: 'TtlError', exit: 'model' },
  /** A duration with an unknown unit. */
  TTL_UNKNOWN_UNIT: { family: 'TtlError', exit: 'model' },
  /** A per-write TTL on an entity that does not declare per-write TTLs. */
  TTL_PER_WRITE_NOT_DECLARED: { family: 'UnsupportedTtlError', exit: 'model' },
  /** A per-write TTL kind this store cannot honour. */
  TTL_PER_WRITE_UNSUPPORTED: { family: 'UnsupportedTtlError', exit: 'model' },
  /** setTtl() on a store that cannot change one record's expiry. */
  TTL_SET_UNSUPPORTED: { family: 'UnsupportedTtlError', exit: 'model' },

  // The command line
  /** lifespan apply: no terminal to confirm and no --yes. */
  APPLY_NEEDS_CONSENT: { family: 'LifespanError', exit: 'usage' },
  /** The config file does not export { model, stores } or a store entry is malformed. */
  CLI_BAD_CONFIG: { family: 'LifespanError', exit: 'usage' },
  /** A store factory in the config returned something that is not a store. */
  CLI_BAD_FACTORY_RESULT: { family: 'LifespanError', exit: 'usage' },
  /** The snapshot file is not a lifespan snapshot of a version this CLI reads. */
  CLI_BAD_SNAPSHOT: { family: 'LifespanError', exit: 'usage' },
  /** purge --now later than the database clock would delete rows that are still live: needs --yes. */
  CLI_PURGE_LIVE_ROWS: { family: 'LifespanError', exit: 'usage' },
  /** A mongodb:// URL the driver refuses (unknown option, bad port). */
  MONGODB_BAD_URL: { family: 'LifespanError', exit: 'usage' },
  /** Two CLI options that cannot be used together (e.g. diff --file with --base). */
  CLI_BAD_OPTIONS: { family: 'LifespanError', exit: 'usage' },
  /** diff: the snapshot was written for other stores or another relational TTL mode than asked for. */
  CLI_SNAPSHOT_MISMATCH: { family: 'LifespanError', exit: 'usage' },
  /** snapshot: the snapshot file could not be written (missing or unwritable folder). */
  CLI_SNAPSHOT_WRITE: { family: 'LifespanError', exit: 'usage' },
  /** A store's dispose() in the config threw. */
  CLI_DISPOSE_FAILED: { family: 'LifespanError', exit: 'user-code' },
  /** A store factory in the config threw. */
  CLI_FACTORY_FAILED: { family: 'LifespanError', exit: 'user-code' },
  /** A models or config file that does not exist. */
  CLI_FILE_NOT_FOUND: { family: 'LifespanError', exit: 'usage' },
  /** A git command run for --base failed. */
  CLI_GIT_FAILED: { family: 'LifespanError', exit: 'usage' },
  /** A models or config module threw while loading. */
  CLI_LOAD_FAILED: { family: 'LifespanError', exit: 'user-code' },
  /** The models file does not exist at the --base git revision. */
  CLI_NO_BASE_MODELS: { family: 'LifespanError', exit: 'usage' },
  /** The models file exports no built model. */
  CLI_NO_MODEL: { family: 'LifespanError', exit: 'usage' },
  /** A store module lacks the URL opener the CLI needs. */
  CLI_NO_OPENER: { family: 'LifespanError', exit: 'usage' },
  /** No snapshot file where one was named. */
  CLI_NO_SNAPSHOT: { family: 'LifespanError', exit: 'usage' },
  /** A command that needs a store, given none. */
  CLI_NO_STORE: { family: 'LifespanError', exit: 'usage' },
  /** Loading a .ts/.mts/.cts file without the typescript package installed. */
  CLI_TYPESCRIPT_MISSING: { family: 'LifespanError', exit: 'usage' },
  /** A store name that the config does not define. */
  CLI_UNKNOWN_STORE: { family: 'LifespanError', exit: 'usage' },
  /** A store URL whose scheme no store opens. */
  CLI_UNKNOWN_URL: { family: 'LifespanError', exit: 'usage' },
  /** A models or config file of an extension the CLI cannot load. */
  CLI_UNSUPPORTED_FILE: { family: 'LifespanError', exit: 'usage' },
  /** A command-line flag or argument that is wrong or missing. */
  CLI_USAGE: { family: 'LifespanError', exit: 'usage' },
  /** lifespan demo: the SQLite driver packages are not installed. */
  DEMO_DRIVER_MISSING: { family: 'LifespanError', exit: 'model' },

  // Cassandra
  /** A json column holds text that is not JSON. */
  CASSANDRA_BAD_JSON: { family: 'LifespanError', exit: 'model' },
  /** A keyspace, table or column name Cassandra does not accept. */
  CASSANDRA_BAD_NAME: { family: 'LifespanError', exit: 'model' },
  /** A CassandraStore option of the wrong kind. */
  CASSANDRA_BAD_OPTION: { family: 'LifespanError', exit: 'model' },
  /** The Cassandra driver could not connect. */
  CASSANDRA_CONNECT_FAILED: { family: 'StoreError', exit: 'store' },
  /** Counter columns sharing a table with other non-key columns. */
  CASSANDRA_COUNTER_MIXED: { family: 'ModelError', exit: 'model' },
  /** A TTL on an entity with counter columns (Cassandra refuses it). */
  CASSANDRA_COUNTER_TTL: { family: 'ModelError', exit: 'model' },
  /** A write of a counter column (counters change by increments only). */
  CASSANDRA_COUNTER_WRITE: { family: 'LifespanError', exit: 'model' },
  /** A filter CQL cannot express (e.g. equality with null). */
  CASSANDRA_FILTER_UNSUPPORTED: { family: 'LifespanError', exit: 'model' },
  /** CassandraStore options without a cassandra-driver Client. */
  CASSANDRA_NO_CLIENT: { family: 'LifespanError', exit: 'model' },
  /** The nodes did not agree on a schema change in time. */
  CASSANDRA_NO_SCHEMA_AGREEMENT: { family: 'StoreError', exit: 'store' },
  /** The Cassandra driver or node refused a statement; the driver error is the cause. */
  CASSANDRA_QUERY_FAILED: { family: 'StoreError', exit: 'store' },
  /** Two entities mapped to one Cassandra table. */
  CASSANDRA_SHARED_TABLE: { family: 'ModelError', exit: 'model' },
  /** A TTL whose expiry would be past the node's expiration ceiling (2038-01-19, or 2106 when configured). */
  CASSANDRA_TTL_PAST_CEILING: { family: 'TtlError', exit: 'model' },
  /** A TTL over Cassandra's maximum of 20 years. */
  CASSANDRA_TTL_TOO_LARGE: { family: 'TtlError', exit: 'model' },
  /** ttl() of a row whose every non-key column is null (Cassandra keeps no TTL to read). */
  CASSANDRA_TTL_UNREADABLE: { family: 'LifespanError', exit: 'model' },
  /** A cassandra: URL without hosts or keyspace. */
  CASSANDRA_URL: { family: 'LifespanError', exit: 'usage' },

  // Cosmos DB
  /** An item id Cosmos DB does not allow. */
  COSMOS_BAD_ID: { family: 'LifespanError', exit: 'model' },
  /** CosmosStore options without an @azure/cosmos Database. */
  COSMOS_BAD_OPTIONS: { family: 'LifespanError', exit: 'model' },
  /** A transactional batch of a unit of work failed; the service rolled that batch back. */
  COSMOS_BATCH_FAILED: { family: 'StoreError', exit: 'store' },
  /** An entity with more than one partition key member (Cosmos maps one path). */
  COSMOS_COMPOSITE_PARTITION_KEY: { family: 'ModelError', exit: 'model' },
  /** The container does not exist. */
  COSMOS_CONTAINER_MISSING: { family: 'StoreError', exit: 'store' },
  /** Entities sharing a container need different partition key paths. */
  COSMOS_CONTAINER_PARTITION_KEY_DISAGREES: { family: 'ModelError', exit: 'model' },
  /** Entities sharing a container need different DefaultTimeToLive values. */
  COSMOS_CONTAINER_TTL_DISAGREES: { family: 'ModelError', exit: 'model' },
  /** The database or container of a request does not exist. */
  COSMOS_NOT_FOUND: { family: 'StoreError', exit: 'store' },
  /** The container changed after the plan was made. */
  COSMOS_PLAN_STALE: { family: 'StoreError', exit: 'store' },
  /** The Cosmos DB service refused a request; the SDK error is the cause. */
  COSMOS_REQUEST_FAILED: { family: 'StoreError', exit: 'store' },
  /** A stored name that Cosmos DB owns or interprets. */
  COSMOS_RESERVED_NAME: { family: 'ModelError', exit: 'model' },
  /** selfSigned for an endpoint that is not on loopback. */
  COSMOS_SELF_SIGNED_REMOTE: { family: 'LifespanError', exit: 'usage' },
  /** A TTL Cosmos DB does not accept (whole seconds 1..2^31-1, or -1). */
  COSMOS_TTL_OUT_OF_RANGE: { family: 'TtlError', exit: 'model' },
  /** COSMOS_ENDPOINT is not an http(s) URL. */
  COSMOS_URL_BAD_ENDPOINT: { family: 'LifespanError', exit: 'usage' },
  /** A cosmos: URL without a database. */
  COSMOS_URL_NO_DATABASE: { family: 'LifespanError', exit: 'usage' },
  /** A cosmos: URL without COSMOS_ENDPOINT and COSMOS_KEY set. */
  COSMOS_URL_NO_ENDPOINT: { family: 'LifespanError', exit: 'usage' },
  /** The Cosmos DB client could not be opened for the URL. */
  COSMOS_URL_OPEN_FAILED: { family: 'LifespanError', exit: 'usage' },
  /** An item kept changing during every attempt of a conditional write. */
  COSMOS_WRITE_CONTENDED: { family: 'StoreError', exit: 'store' },

  // MongoDB
  /** An expireAfterSeconds outside 0..2^31-1 (refused before sending). */
  MONGO_BAD_EXPIRE_AFTER_SECONDS: { family: 'LifespanError', exit: 'model' },
  /** A MongoStore option of the wrong kind. */
  MONGO_BAD_OPTION: { family: 'LifespanError', exit: 'model' },
  /** collMod reported another expireAfterSeconds than the one sent. */
  MONGO_COLLMOD_MISMATCH: { family: 'StoreError', exit: 'store' },
  /** A schema command failed on the server. */
  MONGO_COMMAND_FAILED: { family: 'StoreError', exit: 'store' },
  /** The MongoDB driver could not connect. */
  MONGO_CONNECT_FAILED: { family: 'StoreError', exit: 'store' },
  /** The TTL index a step changes no longer exists. */
  MONGO_INDEX_GONE: { family: 'StoreError', exit: 'store' },
  /** An index of the same name exists on another key. */
  MONGO_INDEX_NAME_CONFLICT: { family: 'StoreError', exit: 'store' },
  /** An index on the same key exists with other options. */
  MONGO_INDEX_OPTIONS_CONFLICT: { family: 'StoreError', exit: 'store' },
  /** Reading a collection's indexes failed. */
  MONGO_INSPECT_FAILED: { family: 'StoreError', exit: 'store' },
  /** MongoStore options without a mongodb driver Db. */
  MONGO_NO_DB: { family: 'LifespanError', exit: 'model' },
  /** A read or write failed on the server; the driver error is the cause. */
  MONGO_OPERATION_FAILED: { family: 'StoreError', exit: 'store' },
  /** A member stored as '_id', which holds the entity's key. */
  MONGO_RESERVED_FIELD: { family: 'ModelError', exit: 'model' },
  /** Two entities mapped to one collection. */
  MONGO_SHARED_COLLECTION: { family: 'ModelError', exit: 'model' },
  /** expireAfterSeconds on a compound index (MongoDB ignores it there). */
  MONGO_TTL_COMPOUND_KEY: { family: 'LifespanError', exit: 'model' },
  /** A TTL that counts from a member that is not a Date. */
  MONGO_TTL_MEMBER_NOT_DATE: { family: 'ModelError', exit: 'model' },
  /** A TTL without a date member to count from (a TTL index needs one). */
  MONGO_TTL_NO_DATE_MEMBER: { family: 'ModelError', exit: 'model' },
  /** expireAfterSeconds on the _id index (MongoDB refuses it). */
  MONGO_TTL_ON_ID: { family: 'LifespanError', exit: 'model' },
  /** A TTL that counts from a key member stored in _id. */
  MONGO_TTL_ON_KEY: { family: 'ModelError', exit: 'model' },
  /** A TTL member of new Date(0), the unset placeholder the monitor would delete at once. */
  MONGO_TTL_VALUE_PLACEHOLDER: { family: 'LifespanError', exit: 'model' },
  /** A mongodb: URL without a database. */
  MONGO_URL_NO_DATABASE: { family: 'LifespanError', exit: 'usage' },

  // Redis
  /** A Redis URL that does not parse. */
  REDIS_BAD_URL: { family: 'LifespanError', exit: 'usage' },
  /** A RedisStore option of the wrong kind (a prefix holding { or }). */
  REDIS_BAD_OPTION: { family: 'LifespanError', exit: 'model' },
  /** new RedisStore() without a node-redis client. */
  REDIS_NO_CLIENT: { family: 'LifespanError', exit: 'model' },
  /** A Redis command failed (connection, ACL, maxmemory, a key of another type). */
  REDIS_OPERATION_FAILED: { family: 'StoreError', exit: 'store' },
  /** A Redis server older than 7.0 (no EXPIRE … GT). */
  REDIS_SERVER_TOO_OLD: { family: 'StoreError', exit: 'store' },
  /** A key under an entity's prefix whose value is not a record lifespan wrote (not JSON, not an object, no key). */
  REDIS_VALUE_UNREADABLE: { family: 'StoreError', exit: 'store' },

  // Relational stores
  /** The clock option returned something that is not a valid Date. */
  RELATIONAL_BAD_CLOCK: { family: 'LifespanError', exit: 'model' },
  /** A table or column name that cannot be used in SQL. */
  RELATIONAL_BAD_IDENTIFIER: { family: 'ModelError', exit: 'model' },
  /** A relational store option of the wrong kind. */
  RELATIONAL_BAD_OPTION: { family: 'LifespanError', exit: 'model' },
  /** Two entities mapped to one table. */
  RELATIONAL_DUPLICATE_TABLE: { family: 'ModelError', exit: 'model' },
  /** A member stored in the column TTL emulation needs. */
  RELATIONAL_EXPIRY_COLUMN_TAKEN: { family: 'ModelError', exit: 'model' },
  /** More string key members than a MariaDB/MySQL index key holds. */
  RELATIONAL_KEY_TOO_WIDE: { family: 'ModelError', exit: 'model' },
  /** A table name lifespan reserves for its TTL record. */
  RELATIONAL_RESERVED_TABLE: { family: 'ModelError', exit: 'model' },
  /** The schema lock could not be taken in time. */
  RELATIONAL_SCHEMA_LOCK: { family: 'StoreError', exit: 'store' },
  /** A SQLite older than 3.42. */
  RELATIONAL_SQLITE_TOO_OLD: { family: 'StoreError', exit: 'store' },
  /** A write or setTtl whose expiry is not after now (the row would expire on arrival). */
  RELATIONAL_TTL_ALREADY_EXPIRED: { family: 'LifespanError', exit: 'model' },
  /** A TTL on an entity while the relational store is configured with ttl: 'reject'. */
  RELATIONAL_TTL_REJECTED: { family: 'ModelError', exit: 'model' },
  /** A knex client lifespan does not support. */
  RELATIONAL_UNSUPPORTED_DRIVER: { family: 'StoreError', exit: 'store' },
  /** A relational URL that does not parse. */
  RELATIONAL_URL_INVALID: { family: 'LifespanError', exit: 'usage' },
  /** A sqlite: URL without a file. */
  RELATIONAL_URL_NO_FILE: { family: 'LifespanError', exit: 'usage' },
  /** A URL scheme that is not a relational one. */
  RELATIONAL_URL_SCHEME: { family: 'LifespanError', exit: 'usage' },
  /** A ?ttl= URL option that is not a TTL mode. */
  RELATIONAL_URL_TTL: { family: 'LifespanError', exit: 'usage' },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODE_TABLE;

/** The codes a given error class may carry. */
export type CodeOf<F extends ErrorFamily> = {
  [C in ErrorCode]: (typeof ERROR_CODE_TABLE)[C]['family'] extends F ? C : never;
}[ErrorCode];

/** The table row of a code read at run time (an error from another copy of lifespan, a driver). */
export function errorCodeSpec(code: unknown): ErrorCodeSpec | undefined {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODE_TABLE, code)
    ? ERROR_CODE_TABLE[code as ErrorCode]
    : undefined;
}

/**
 * Error codes that mean the same thing in every provider, so a program can handle them once.
 * Store-specific conditions keep their own prefixed codes (e.g. CASSANDRA_TTL_PAST_CEILING).
 * Each one's meaning is its row in ERROR_CODE_TABLE.
 */
export const ErrorCodes = {
  UNKNOWN_ENTITY: 'UNKNOWN_ENTITY',
  UNKNOWN_MEMBER: 'UNKNOWN_MEMBER',
  BAD_ARGUMENT: 'BAD_ARGUMENT',
  VALUE_INVALID: 'VALUE_INVALID',
  KEY_INCOMPLETE: 'KEY_INCOMPLETE',
  DUPLICATE_KEY: 'STORE_DUPLICATE_KEY',
  UOW_ALREADY_COMMITTED: 'UOW_ALREADY_COMMITTED',
  PLAN_DESTRUCTIVE_NOT_ALLOWED: 'PLAN_DESTRUCTIVE_NOT_ALLOWED',
  PLAN_CONFLICT: 'PLAN_CONFLICT',
  ENSURE_NEEDS_REVIEW: 'ENSURE_NEEDS_REVIEW',
  PLAN_RETROACTIVE_NOT_ALLOWED: 'PLAN_RETROACTIVE_NOT_ALLOWED',
  STORE_UNREACHABLE: 'STORE_UNREACHABLE',
  STORE_AUTH_FAILED: 'STORE_AUTH_FAILED',
  STORE_DATABASE_MISSING: 'STORE_DATABASE_MISSING',
  STORE_SQLITE_FOLDER_MISSING: 'STORE_SQLITE_FOLDER_MISSING',
  STORE_DRIVER_MISSING: 'STORE_DRIVER_MISSING',
  PURGE_INTERRUPTED: 'PURGE_INTERRUPTED',
} as const satisfies Record<string, ErrorCode>;
