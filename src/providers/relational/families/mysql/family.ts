import type { FieldType } from '../../../../model/types';
import type { RelationalDialect } from '../dialects';
import { passThroughTypeCast } from '../../drivers/mysql-rows';
import type { ColumnType, DdlGuards, SqlFamily } from '../family';
import { MYSQL_KEY_VIOLATIONS } from './key-violations';
import { isMysqlLockConflict } from './lock-conflicts';
import { spelledOutAfter } from './key-after';
import { parseUtcDatetime } from './datetime-text';

const INSTANT: ColumnType = { sql: 'DATETIME(3)', live: 'datetime(3)', collation: null };

const TYPES: Record<Exclude<FieldType, 'date'>, string> = {
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

/** MariaDB/MySQL limit an index key to 3072 bytes; varchar(255) utf8mb4 keys take 1020 each. */
const MAX_STRING_KEY_MEMBERS = 3;

/** MariaDB knows the IF [NOT] EXISTS guards; MySQL 8 does not (apply tolerates "exists"). */
function guards(dialect: RelationalDialect): DdlGuards {
  const mariadb = dialect === 'mariadb';
  return { createIndexIfNotExists: mariadb, addColumnIfNotExists: mariadb, dropIndexIfExists: mariadb };
}

/** The binary collation for exact text equality: MariaDB's NO PAD variant compares trailing spaces too. */
function textCollation(dialect: RelationalDialect): string {
  return dialect === 'mariadb' ? 'utf8mb4_nopad_bin' : 'utf8mb4_bin';
}

/**
 * MariaDB / MySQL: backquotes, DATETIME(3) instants in UTC, ON DUPLICATE KEY upserts (with no
 * condition, so an insert clears an expired row first), binary collations on text columns.
 */
export const MYSQL_FAMILY: SqlFamily = {
  name: 'mysql',
  quote: (name) => `\`${name}\``,
  numberedParams: false,
  instantType: INSTANT,
  columnType(dialect, type, isKey) {
    if (type === 'date') return INSTANT;
    const sql = type === 'string' && isKey ? 'varchar(255)' : TYPES[type];
    const isText = type === 'string' || type === 'uuid' || type === 'json';
    if (!isText) return { sql, live: sql, collation: null };
    const collation = textCollation(dialect);
    return { sql: `${sql} CHARACTER SET utf8mb4 COLLATE ${collation}`, live: sql, collation };
  },
  /** MariaDB reports display widths (`bigint(20)`); MySQL 8 does not. Compare without them. */
  normaliseLiveType: (type) =>
    type
      .trim()
      .toLowerCase()
      .replace(/^(bigint|int|smallint|mediumint)\(\d+\)/, '$1')
      .replace(/\s+unsigned$/, ' unsigned'),
  integerCast: 'SIGNED',
  keyWidthLimit: {
    members: MAX_STRING_KEY_MEMBERS,
    why: `MariaDB/MySQL index keys hold at most ${MAX_STRING_KEY_MEMBERS} varchar(255) utf8mb4 columns`,
  },
  ddlGuards: guards,
  dropIndexSql: (table, index, ifExists) => `DROP INDEX ${ifExists ? 'IF EXISTS ' : ''}${index} ON ${table}`,
  expiry: {
    dbNow: 'UTC_TIMESTAMP(3)',
    nowParam: (p) => `CAST(${p} AS DATETIME(3))`,
    plusSeconds: (instant, s) => `(${instant} + INTERVAL ${s} SECOND)`,
    remainingMs: (column, now) => `(TIMESTAMPDIFF(MICROSECOND, ${now}, ${column}) / 1000)`,
  },
  clockName: 'UTC_TIMESTAMP(3)',
  schedulerHint: 'a cron job, a timer in your service or the Event Scheduler',
  instantStorage: 'DATETIME(3) holds UTC, computed with UTC_TIMESTAMP(3)',
  encodeInstant(date) {
    // DATETIME holds years 1000..9999; toISOString of those is 'YYYY-MM-DDTHH:MM:SS.mmmZ'.
    const iso = date.toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
  },
  parseInstantText: parseUtcDatetime,
  bindsBigint: false,
  bindsBoolean: false,
  parsesJson: false,
  selectColumn: mysqlSelectColumn,
  // Rows as objects keyed by column name, never nested by table, values as mysql2 reads them (not
  // Buffers, and not what a typeCast function of the connection's makes of them).
  rawQueryOptions: { rowsAsArray: false, nestTables: false, typeCast: passThroughTypeCast },
  // VALUES(col) and the bare column: ON DUPLICATE KEY has no `excluded` row and no table prefix.
  incoming: (column) => `VALUES(${column})`,
  stored: (_table, column) => column,
  conditionalInsert: false,
  onConflictUpdate(keyColumns, sets) {
    const first = keyColumns[0] as string;
    return `ON DUPLICATE KEY UPDATE ${sets.length > 0 ? sets.join(', ') : `${first} = ${first}`}`;
  },
  rowsOf: (result) => (result as [Record<string, unknown>[]])[0],
  afterCompoundKey: spelledOutAfter,
  // As text (bytes as hex): what binding the value back compares exactly, NULL-safe.
  selectedValue: {
    read: (c, type) => (type === 'binary' ? `HEX(${c})` : `CAST(${c} AS CHAR)`),
    same: (c, type, p) => `${type === 'binary' ? `HEX(${c})` : `CAST(${c} AS CHAR)`} <=> ${p}`,
  },
  keyViolations: MYSQL_KEY_VIOLATIONS,
  isLockConflict: isMysqlLockConflict,
};

/**
 * DATETIME and bigint members as text (the text mysql2's dateStrings and bigNumberStrings give:
 * no zone applied, no precision lost), each column named by its position (digits: never a member's
 * column name, so ORDER BY still means the column). Reads then decode the same under any
 * connection settings, and are sent with mysql2's positional execute (drivers/mysql-executor.ts).
 */
function mysqlSelectColumn(column: string, type: FieldType, position: number): string {
  const value = type === 'date' || type === 'bigint' ? `CAST(${column} AS CHAR)` : column;
  return `${value} AS \`${position}\``;
}
