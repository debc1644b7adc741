import type { NonDateType, SqlFamily } from '../family';

const TYPES: Record<NonDateType, string> = {
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
  instantType: { sql: 'INTEGER', live: 'integer', collation: null },
  columnType: (_dialect, type) => ({ sql: TYPES[type], live: TYPES[type].toLowerCase(), collation: null }),
  normaliseLiveType: (lower) => lower,
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
};

/** `ON CONFLICT (keys) DO UPDATE SET ...`, the form SQLite and PostgreSQL share. */
export function onConflict(keyColumns: readonly string[], sets: readonly string[]): string {
  const action = sets.length > 0 ? `DO UPDATE SET ${sets.join(', ')}` : 'DO NOTHING';
  return `ON CONFLICT (${keyColumns.join(', ')}) ${action}`;
}
