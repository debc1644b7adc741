import type { FieldType } from '../../model/types';

/**
 * The SQL dialects lifespan speaks. MariaDB and MySQL share the `mysql2` driver and almost all
 * SQL; they differ in the binary collation used for exact text equality.
 */
export type RelationalDialect = 'sqlite' | 'postgres' | 'mariadb' | 'mysql';
export const RELATIONAL_DIALECTS: readonly RelationalDialect[] = ['sqlite', 'postgres', 'mariadb', 'mysql'];

export type DialectFamily = 'sqlite' | 'postgres' | 'mysql';

export function familyOf(dialect: RelationalDialect): DialectFamily {
  return dialect === 'mariadb' || dialect === 'mysql' ? 'mysql' : dialect;
}

export const EXPIRY_COLUMN = 'expires_at';

export function expiryIndexName(table: string): string {
  return `ix_${table}_expires_at`;
}

/** Identifiers are validated against the portable pattern first, so quoting never needs escaping. */
export function quote(dialect: RelationalDialect, name: string): string {
  return familyOf(dialect) === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

export interface ColumnType {
  /** As written in DDL. */
  readonly sql: string;
  /** As inspection reports it (normalised), to compare live columns with the model. */
  readonly live: string;
  /** Binary collation for exact text equality (MariaDB/MySQL text columns only). */
  readonly collation: string | null;
}

/** The instant type: SQLite integer epoch milliseconds; PostgreSQL timestamptz; MariaDB/MySQL DATETIME(3) in UTC. */
export function instantType(dialect: RelationalDialect): ColumnType {
  switch (familyOf(dialect)) {
    case 'sqlite':
      return { sql: 'INTEGER', live: 'integer', collation: null };
    case 'postgres':
      return { sql: 'timestamp with time zone', live: 'timestamp with time zone', collation: null };
    default:
      return { sql: 'DATETIME(3)', live: 'datetime(3)', collation: null };
  }
}

export function columnType(dialect: RelationalDialect, type: FieldType, isKey: boolean): ColumnType {
  const family = familyOf(dialect);
  if (type === 'date') return instantType(dialect);
  if (family === 'sqlite') {
    const sql = SQLITE_TYPES[type];
    return { sql, live: sql.toLowerCase(), collation: null };
  }
  if (family === 'postgres') return { sql: POSTGRES_TYPES[type], live: POSTGRES_TYPES[type], collation: null };
  const collation = dialect === 'mariadb' ? 'utf8mb4_nopad_bin' : 'utf8mb4_bin';
  const sql = type === 'string' && isKey ? 'varchar(255)' : MYSQL_TYPES[type];
  const isText = type === 'string' || type === 'uuid' || type === 'json';
  return isText
    ? { sql: `${sql} CHARACTER SET utf8mb4 COLLATE ${collation}`, live: sql, collation }
    : { sql, live: sql, collation: null };
}

type NonDate = Exclude<FieldType, 'date'>;

const SQLITE_TYPES: Record<NonDate, string> = {
  string: 'TEXT',
  uuid: 'TEXT',
  number: 'REAL',
  integer: 'INTEGER',
  counter: 'INTEGER',
  bigint: 'INTEGER',
  boolean: 'INTEGER',
  json: 'TEXT',
  binary: 'BLOB',
};

const POSTGRES_TYPES: Record<NonDate, string> = {
  string: 'text',
  uuid: 'uuid',
  number: 'double precision',
  integer: 'bigint',
  counter: 'bigint',
  bigint: 'bigint',
  boolean: 'boolean',
  json: 'jsonb',
  binary: 'bytea',
};

const MYSQL_TYPES: Record<NonDate, string> = {
  string: 'longtext',
  uuid: 'char(36)',
  number: 'double',
  integer: 'bigint',
  counter: 'bigint',
  bigint: 'bigint',
  boolean: 'tinyint(1)',
  json: 'longtext',
  binary: 'longblob',
};

/** MariaDB reports display widths (`bigint(20)`); MySQL 8 does not. Compare without them. */
export function normaliseLiveType(dialect: RelationalDialect, type: string): string {
  const lower = type.trim().toLowerCase();
  if (familyOf(dialect) !== 'mysql') return lower;
  return lower.replace(/^(bigint|int|smallint|mediumint)\(\d+\)/, '$1').replace(/\s+unsigned$/, ' unsigned');
}

/**
 * SQL fragments of the expiry emulation, per dialect. `now` is either the database clock or a
 * bound parameter (an injected clock or purgeExpired({ now })).
 */
export interface ExpirySql {
  /** The database's current instant, in the instant type. */
  readonly dbNow: string;
  /** A bound parameter read as an instant. */
  nowParam(placeholder: string): string;
  /** `instant + seconds` where seconds is a bound whole number. */
  plusSeconds(instant: string, secondsPlaceholder: string): string;
  /** Milliseconds from `now` until `column` (NULL when the column is NULL). */
  remainingMs(column: string, now: string): string;
}

export function expirySql(dialect: RelationalDialect): ExpirySql {
  switch (familyOf(dialect)) {
    case 'sqlite':
      return {
        dbNow: "CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)",
        nowParam: (p) => p,
        plusSeconds: (instant, s) => `(${instant} + ${s} * 1000)`,
        remainingMs: (column, now) => `(${column} - ${now})`,
      };
    case 'postgres':
      return {
        dbNow: 'now()',
        nowParam: (p) => `CAST(${p} AS timestamp with time zone)`,
        plusSeconds: (instant, s) => `(${instant} + CAST(${s} AS integer) * interval '1 second')`,
        remainingMs: (column, now) => `CAST(extract(epoch from (${column} - ${now})) * 1000 AS double precision)`,
      };
    default:
      return {
        dbNow: 'UTC_TIMESTAMP(3)',
        nowParam: (p) => `CAST(${p} AS DATETIME(3))`,
        plusSeconds: (instant, s) => `(${instant} + INTERVAL ${s} SECOND)`,
        remainingMs: (column, now) => `(TIMESTAMPDIFF(MICROSECOND, ${now}, ${column}) / 1000)`,
      };
  }
}

/** How the dialect's database clock is named in explanations. */
export function clockName(dialect: RelationalDialect): string {
  switch (familyOf(dialect)) {
    case 'sqlite':
      return "unixepoch('subsec')";
    case 'postgres':
      return 'now()';
    default:
      return 'UTC_TIMESTAMP(3)';
  }
}

export function dialectLabel(dialect: RelationalDialect): string {
  return { sqlite: 'SQLite', postgres: 'PostgreSQL', mariadb: 'MariaDB', mysql: 'MySQL' }[dialect];
}
