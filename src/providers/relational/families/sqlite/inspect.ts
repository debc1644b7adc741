import type { SchemaRunner } from '../../drivers/schema-runner';
import { byTable, groupIndexes, placeholders, type LiveTable } from '../../schema/live-table';
import { SQLITE_FAMILY } from './family';

/** pragma table-valued functions joined to sqlite_master: two queries for all the tables. */
export async function inspectTables(runner: SchemaRunner, tables: readonly string[]): Promise<Map<string, LiveTable>> {
  const list = placeholders(tables);
  const columnRows = await runner.rows(
    `SELECT m.name AS tbl, p.name AS name, p.type AS type, p."notnull" AS not_null, p.pk AS pk
     FROM sqlite_master m JOIN pragma_table_info(m.name) p
     WHERE m.type = 'table' AND m.name COLLATE NOCASE IN (${list}) ORDER BY m.name, p.cid`,
    tables,
  );
  const indexRows = await runner.rows(
    `SELECT m.name AS tbl, l.name AS idx, i.name AS col
     FROM sqlite_master m JOIN pragma_index_list(m.name) l JOIN pragma_index_info(l.name) i
     WHERE m.type = 'table' AND m.name COLLATE NOCASE IN (${list}) AND l.origin <> 'pk'
     ORDER BY m.name, l.seq, i.seqno`,
    tables,
  );
  const indexesOf = byTable(indexRows);
  const live = new Map<string, LiveTable>();
  for (const [table, columns] of byTable(columnRows)) {
    const primaryKey = columns
      .filter((c) => Number(c['pk']) > 0)
      .sort((a, b) => Number(a['pk']) - Number(b['pk']))
      .map((c) => String(c['name']));
    live.set(table, {
      table,
      columns: columns.map((c) => ({
        name: String(c['name']),
        type: SQLITE_FAMILY.normaliseLiveType(String(c['type'])),
        // SQLite lets a primary key column of a rowid table hold NULL unless declared NOT NULL; report what is declared.
        nullable: Number(c['not_null']) === 0,
        collation: null,
      })),
      primaryKey,
      indexes: groupIndexes(indexesOf.get(table) ?? [], 'idx', 'col'),
    });
  }
  return live;
}
