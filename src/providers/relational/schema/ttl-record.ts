import type { TableSpec } from '../compile';
import { sqlFamily } from '../families/by-dialect';
import type { RelationalDialect } from '../families/dialects';
import { TTL_RECORD_TABLE } from './names';
import type { SchemaRunner } from '../drivers/schema-runner';

/*
 * Emulated TTL lives in lifespan's writes, not in the schema, so the declared TTL is recorded in
 * a table of its own (TTL_RECORD_TABLE): plan() compares it with the model and shows a TTL change
 * as a reviewable in-place step (old → new, new writes only), as it does for stores with a native setting.
 */

/** What was recorded for one table: its default TTL (null: per-write only) and what it counts from. */
export interface TtlRecord {
  readonly seconds: number | null;
  readonly countsFrom: string;
}

/** The record an emulated table should have. */
export function recordOf(table: TableSpec): TtlRecord {
  return { seconds: table.ttlSeconds, countsFrom: table.ttlCountsFrom ?? 'last-write' };
}

export function sameRecord(a: TtlRecord, b: TtlRecord): boolean {
  return a.seconds === b.seconds && a.countsFrom === b.countsFrom;
}

export function createRecordTableSql(dialect: RelationalDialect): string {
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  const text = family.columnType(dialect, 'string', true).sql;
  const int = family.columnType(dialect, 'integer', false).sql;
  return (
    `CREATE TABLE IF NOT EXISTS ${q(TTL_RECORD_TABLE)} (${q('table_name')} ${text} NOT NULL, ` +
    `${q('ttl_seconds')} ${int} NULL, ${q('counts_from')} ${text} NOT NULL, PRIMARY KEY (${q('table_name')}))`
  );
}

/** Writes the record; names are validated identifiers and seconds a whole number, so literals are safe. */
export function upsertRecordSql(dialect: RelationalDialect, table: string, record: TtlRecord): string {
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  const values = `('${table}', ${record.seconds === null ? 'NULL' : String(record.seconds)}, '${record.countsFrom}')`;
  const head = `INSERT INTO ${q(TTL_RECORD_TABLE)} (${q('table_name')}, ${q('ttl_seconds')}, ${q('counts_from')}) VALUES ${values}`;
  const sets = ['ttl_seconds', 'counts_from'].map((n) => `${q(n)} = ${family.incoming(q(n))}`);
  return `${head} ${family.onConflictUpdate([q('table_name')], sets)}`;
}

export function deleteRecordSql(dialect: RelationalDialect, table: string): string {
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  return `DELETE FROM ${q(TTL_RECORD_TABLE)} WHERE ${q('table_name')} = '${table}'`;
}

/** The records of the given tables (none when the record table does not exist yet). */
export async function readRecords(
  runner: SchemaRunner,
  dialect: RelationalDialect,
  exists: boolean,
): Promise<Map<string, TtlRecord>> {
  const records = new Map<string, TtlRecord>();
  if (!exists) return records;
  const family = sqlFamily(dialect);
  const q = (name: string) => family.quote(name);
  const rows = await runner.rows(
    `SELECT ${q('table_name')} AS t, ${q('ttl_seconds')} AS s, ${q('counts_from')} AS c FROM ${q(TTL_RECORD_TABLE)}`,
  );
  for (const row of rows) {
    const seconds = row['s'] === null || row['s'] === undefined ? null : Number(row['s']);
    records.set(String(row['t']), { seconds, countsFrom: String(row['c']) });
  }
  return records;
}
