import type { SchemaRunner } from '../../drivers/schema-runner';
import { byTable, groupIndexes, placeholders, type LiveTable } from '../../schema/live-table';
import { MYSQL_FAMILY } from './family';

/** information_schema, in the current database: two queries for all the tables. */
export async function inspectTables(runner: SchemaRunner, tables: readonly string[]): Promise<Map<string, LiveTable>> {
  const list = placeholders(tables);
  const columnRows = await runner.rows(
    `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable,
       COLLATION_NAME AS collation
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${list})
     ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    tables,
  );
  const indexRows = await runner.rows(
    `SELECT TABLE_NAME AS tbl, INDEX_NAME AS name, COLUMN_NAME AS col FROM information_schema.STATISTICS
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${list}) ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    tables,
  );
  const indexesOf = byTable(indexRows);
  const live = new Map<string, LiveTable>();
  for (const [table, columns] of byTable(columnRows)) {
    const indexes = groupIndexes(indexesOf.get(table) ?? [], 'name', 'col');
    live.set(table, {
      table,
      columns: columns.map((c) => ({
        name: String(c['name']),
        type: MYSQL_FAMILY.normaliseLiveType(String(c['type'])),
        nullable: String(c['nullable']) === 'YES',
        collation: c['collation'] === null || c['collation'] === undefined ? null : String(c['collation']),
      })),
      primaryKey: indexes.find((i) => i.name === 'PRIMARY')?.columns ?? [],
      indexes: indexes.filter((i) => i.name !== 'PRIMARY'),
    });
  }
  return live;
}
