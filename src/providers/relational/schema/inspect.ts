import { familyOf, normaliseLiveType, type DialectFamily, type RelationalDialect } from '../families/dialects';
import type { SchemaRunner } from '../drivers/schema-runner';

/** A live table in the same terms as the desired TableSpec. */
export interface LiveColumn {
  readonly name: string;
  /** Normalised: lower case, without MariaDB's integer display widths. */
  readonly type: string;
  readonly nullable: boolean;
  readonly collation: string | null;
}

export interface LiveIndex {
  readonly name: string;
  readonly columns: readonly string[];
}

export interface LiveTable {
  readonly table: string;
  readonly columns: readonly LiveColumn[];
  readonly primaryKey: readonly string[];
  /** Secondary indexes (not the primary key). */
  readonly indexes: readonly LiveIndex[];
}

/**
 * Reads each named table (null when it does not exist) with two catalog queries for all of them —
 * one for columns, one for indexes — whatever the number of tables: pragma table-valued functions
 * joined to sqlite_master, pg_catalog or information_schema.
 */
export async function inspectTables(
  runner: SchemaRunner,
  dialect: RelationalDialect,
  tables: readonly string[],
): Promise<Map<string, LiveTable | null>> {
  const live = new Map<string, LiveTable | null>();
  for (const table of tables) live.set(table, null);
  if (tables.length === 0) return live;
  const found = await inspectAll(runner, dialect, tables);
  const named = requestedName(tables);
  for (const [catalogName, table] of found) {
    const name = named(catalogName);
    if (name !== undefined && live.get(name) === null) live.set(name, { ...table, table: name });
  }
  return live;
}

/**
 * Maps a table name as the catalog spells it back to the name asked for: exactly, else ignoring
 * case (SQLite and MariaDB's information_schema compare names without case, as the per-table
 * lookups did).
 */
function requestedName(tables: readonly string[]): (catalogName: string) => string | undefined {
  const exact = new Set(tables);
  const folded = new Map<string, string>();
  for (const t of tables) if (!folded.has(t.toLowerCase())) folded.set(t.toLowerCase(), t);
  return (name) => (exact.has(name) ? name : folded.get(name.toLowerCase()));
}

type Inspector = (
  runner: SchemaRunner,
  dialect: RelationalDialect,
  tables: readonly string[],
) => Promise<Map<string, LiveTable>>;

/** Each family's catalog queries. */
const INSPECTORS: Record<DialectFamily, Inspector> = {
  sqlite: (runner, _dialect, tables) => inspectSqlite(runner, tables),
  postgres: (runner, _dialect, tables) => inspectPostgres(runner, tables),
  mysql: inspectMysql,
};

function inspectAll(
  runner: SchemaRunner,
  dialect: RelationalDialect,
  tables: readonly string[],
): Promise<Map<string, LiveTable>> {
  return INSPECTORS[familyOf(dialect)](runner, dialect, tables);
}

function placeholders(tables: readonly string[]): string {
  return tables.map(() => '?').join(', ');
}

/** Rows grouped by their `tbl` column, in the order the query returned them. */
function byTable(rows: readonly Record<string, unknown>[]): Map<string, Record<string, unknown>[]> {
  const grouped = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const name = String(row['tbl']);
    let list = grouped.get(name);
    if (!list) grouped.set(name, (list = []));
    list.push(row);
  }
  return grouped;
}

async function inspectSqlite(runner: SchemaRunner, tables: readonly string[]): Promise<Map<string, LiveTable>> {
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
        type: normaliseLiveType('sqlite', String(c['type'])),
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

/** Index rows (one per column, in index order) → indexes in first-seen order. */
function groupIndexes(rows: readonly Record<string, unknown>[], nameKey: string, columnKey: string): LiveIndex[] {
  const byIndex = new Map<string, string[]>();
  for (const row of rows) {
    const name = String(row[nameKey]);
    let cols = byIndex.get(name);
    if (!cols) byIndex.set(name, (cols = []));
    cols.push(String(row[columnKey]));
  }
  return [...byIndex].map(([name, columns]) => ({ name, columns }));
}

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

async function inspectPostgres(runner: SchemaRunner, tables: readonly string[]): Promise<Map<string, LiveTable>> {
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
        type: normaliseLiveType('postgres', String(c['type'])),
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

async function inspectMysql(
  runner: SchemaRunner,
  dialect: RelationalDialect,
  tables: readonly string[],
): Promise<Map<string, LiveTable>> {
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
        type: normaliseLiveType(dialect, String(c['type'])),
        nullable: String(c['nullable']) === 'YES',
        collation: c['collation'] === null || c['collation'] === undefined ? null : String(c['collation']),
      })),
      primaryKey: indexes.find((i) => i.name === 'PRIMARY')?.columns ?? [],
      indexes: indexes.filter((i) => i.name !== 'PRIMARY'),
    });
  }
  return live;
}
