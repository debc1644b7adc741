import type { FieldType } from '../../../../model/types';
import type { ColumnType, SqlFamily } from '../family';
import { onConflict, rowValueAfter } from '../shared-sql';
import { POSTGRES_KEY_VIOLATIONS } from './key-violations';
import { isPostgresLockConflict } from './lock-conflicts';

const INSTANT: ColumnType = { sql: 'timestamp with time zone', live: 'timestamp with time zone', collation: null };

const TYPES: Record<Exclude<FieldType, 'date'>, string> = {
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

const POSTGRES_GUARDS = { createIndexIfNotExists: true, addColumnIfNotExists: true, dropIndexIfExists: true };

/** PostgreSQL: `$n` placeholders, timestamptz instants, ON CONFLICT upserts, a driver that parses jsonb. */
export const POSTGRES_FAMILY: SqlFamily = {
  name: 'postgres',
  quote: (name) => `"${name}"`,
  numberedParams: true,
  instantType: INSTANT,
  columnType: (_dialect, type) =>
    type === 'date' ? INSTANT : { sql: TYPES[type], live: TYPES[type], collation: null },
  normaliseLiveType: (type) => type.trim().toLowerCase(),
  integerCast: 'integer',
  keyWidthLimit: null,
  ddlGuards: () => POSTGRES_GUARDS,
  dropIndexSql: (_table, index) => `DROP INDEX IF EXISTS ${index}`,
  expiry: {
    dbNow: 'now()',
    nowParam: (p) => `CAST(${p} AS timestamp with time zone)`,
    plusSeconds: (instant, s) => `(${instant} + CAST(${s} AS integer) * interval '1 second')`,
    remainingMs: (column, now) => `CAST(extract(epoch from (${column} - ${now})) * 1000 AS double precision)`,
  },
  clockName: 'now()',
  schedulerHint: 'a cron job, a timer in your service or pg_cron',
  instantStorage: 'timestamptz (an absolute instant)',
  encodeInstant: (date) => date.toISOString(),
  parseInstantText: (text) => new Date(text),
  bindsBigint: false,
  bindsBoolean: true,
  selectColumn: (column) => column,
  rawQueryOptions: null,
  parsesJson: true,
  incoming: (column) => `excluded.${column}`,
  stored: (table, column) => `${table}.${column}`,
  conditionalInsert: true,
  onConflictUpdate: onConflict,
  rowsOf: (result) => (result as { rows: Record<string, unknown>[] }).rows,
  afterCompoundKey: rowValueAfter,
  // As text: timestamps keep their microseconds, JSON and numbers their stored spelling.
  selectedValue: {
    read: (c) => `CAST(${c} AS text)`,
    same: (c, _type, p) => `CAST(${c} AS text) IS NOT DISTINCT FROM CAST(${p} AS text)`,
  },
  keyViolations: POSTGRES_KEY_VIOLATIONS,
  isLockConflict: isPostgresLockConflict,
};
