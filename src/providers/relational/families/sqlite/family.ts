import type { FieldType } from '../../../../model/types';
import type { ColumnType, SqlFamily } from '../family';
import { onConflict, rowValueAfter } from '../shared-sql';
import { SQLITE_KEY_VIOLATIONS } from './key-violations';
import { isSqliteLockConflict } from './lock-conflicts';

/** Epoch milliseconds. */
const INSTANT: ColumnType = { sql: 'INTEGER', live: 'integer', collation: null };

const TYPES: Record<Exclude<FieldType, 'date'>, string> = {
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

const SQLITE_GUARDS = { createIndexIfNotExists: true, addColumnIfNotExists: false, dropIndexIfExists: true };

/** SQLite: instants are integer epoch milliseconds; the upsert is ON CONFLICT. */
export const SQLITE_FAMILY: SqlFamily = {
  name: 'sqlite',
  quote: (name) => `"${name}"`,
  numberedParams: false,
  instantType: INSTANT,
  columnType: (_dialect, type) =>
    type === 'date' ? INSTANT : { sql: TYPES[type], live: TYPES[type].toLowerCase(), collation: null },
  normaliseLiveType: (type) => type.trim().toLowerCase(),
  integerCast: 'integer',
  keyWidthLimit: null,
  ddlGuards: () => SQLITE_GUARDS,
  dropIndexSql: (_table, index) => `DROP INDEX IF EXISTS ${index}`,
  expiry: {
    dbNow: "CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)",
    nowParam: (p) => p,
    plusSeconds: (instant, s) => `(${instant} + ${s} * 1000)`,
    remainingMs: (column, now) => `(${column} - ${now})`,
  },
  clockName: "unixepoch('subsec')",
  schedulerHint: 'a cron job or a timer in your service; SQLite has no scheduler',
  instantStorage: 'INTEGER holds epoch milliseconds (UTC)',
  encodeInstant: (date) => date.getTime(),
  parseInstantText: (text) => new Date(text),
  bindsBigint: true,
  bindsBoolean: false,
  selectColumn: (column) => column,
  rawQueryOptions: null,
  parsesJson: false,
  incoming: (column) => `excluded.${column}`,
  stored: (table, column) => `${table}.${column}`,
  conditionalInsert: true,
  onConflictUpdate: onConflict,
  rowsOf: (result) => result as Record<string, unknown>[],
  afterCompoundKey: rowValueAfter,
  // Values round-trip as stored: the bound value is compared as it is.
  selectedValue: { read: (c) => c, same: (c, _type, p) => `${c} IS ${p}` },
  keyViolations: SQLITE_KEY_VIOLATIONS,
  isLockConflict: isSqliteLockConflict,
};
