import type { SchemaRunner } from '../../drivers/schema-runner';
import { byTable, placeholders, type LiveTable } from '../../schema/live-table';
import { POSTGRES_FAMILY } from './family';

const pgColumns = (list: string) => `
SELECT c.relname AS tbl, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relname IN (${list}) AND c.relkind IN ('r', 'p') AND a.attnum > 0
  AND NOT a.attisdropped
ORDER BY c.relname, a.attnum`;

const pgIndexes = (list: string) => `
SELECT c.relname AS tbl, ic.relname AS name, i.indisprimary AS is_primary,
  array_to_string(ARRAY(
    SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.ord), ',') AS columns
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relname IN (${list})`;

/** pg_catalog, in the current schema: two queries for all the tables. */
export async function inspectTables(runner: SchemaRunner, tables: readonly string[]): Promise<Map<string, LiveTable>> {
  const list = placeholders(tables);
  const columnRows = await runner.rows(pgColumns(list), tables);
  const indexesOf = byTable(await runner.rows(pgIndexes(list), tables));
  const split = (value: unknown) => String(value).split(',').filter(Boolean);
  const live = new Map<string, LiveTable>();
  for (const [table, columns] of byTable(columnRows)) {
    const indexes = indexesOf.get(table) ?? [];
    const primary = indexes.find((i) => i['is_primary'] === true);
    live.set(table, {
      table,
      columns: columns.map((c) => ({
        name: String(c['name']),
        type: POSTGRES_FAMILY.normaliseLiveType(String(c['type'])),
        nullable: c['nullable'] === true,
        collation: null,
      })),
      primaryKey: primary ? split(primary['columns']) : [],
      indexes: indexes
        .filter((i) => i['is_primary'] !== true)
        .map((i) => ({ name: String(i['name']), columns: split(i['columns']) })),
    });
  }
  return live;
}
