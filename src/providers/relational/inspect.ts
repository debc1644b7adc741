import { familyOf, normaliseLiveType, type RelationalDialect } from './dialect';
import type { SchemaRunner } from './schema-runner';

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

/** Reads each named table (null when it does not exist): pragmas, pg_catalog or information_schema. */
export async function inspectTables(
  runner: SchemaRunner,
  dialect: RelationalDialect,
  tables: readonly string[],
): Promise<Map<string, LiveTable | null>> {
  const live = new Map<string, LiveTable | null>();
  for (const table of tables) live.set(table, await inspectTable(runner, dialect, table));
  return live;
}

function inspectTable(runner: SchemaRunner, dialect: RelationalDialect, table: string): Promise<LiveTable | null> {
  switch (familyOf(dialect)) {
    case 'sqlite':
      return inspectSqlite(runner, table);
    case 'postgres':
      return inspectPostgres(runner, table);
    default:
      return inspectMysql(runner, dialect, table);
  }
}

async function inspectSqlite(runner: SchemaRunner, table: string): Promise<LiveTable | null> {
  const columns = await runner.rows('SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_info(?)', [table]);
  if (columns.length === 0) return null;
  const primaryKey = columns
    .filter((c) => Number(c['pk']) > 0)
    .sort((a, b) => Number(a['pk']) - Number(b['pk']))
    .map((c) => String(c['name']));
  const indexes: LiveIndex[] = [];
  for (const index of await runner.rows("SELECT name FROM pragma_index_list(?) WHERE origin <> 'pk'", [table])) {
    const name = String(index['name']);
    const parts = await runner.rows('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [name]);
    indexes.push({ name, columns: parts.map((p) => String(p['name'])) });
  }
  return {
    table,
    columns: columns.map((c) => ({
      name: String(c['name']),
      type: normaliseLiveType('sqlite', String(c['type'])),
      // SQLite lets a primary key column of a rowid table hold NULL unless declared NOT NULL; report what is declared.
      nullable: Number(c['not_null']) === 0,
      collation: null,
    })),
    primaryKey,
    indexes,
  };
}

const PG_COLUMNS = `
SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relname = ? AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum`;

const PG_INDEXES = `
SELECT ic.relname AS name, i.indisprimary AS is_primary,
  array_to_string(ARRAY(
    SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.ord), ',') AS columns
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND c.relname = ?`;

async function inspectPostgres(runner: SchemaRunner, table: string): Promise<LiveTable | null> {
  const columns = await runner.rows(PG_COLUMNS, [table]);
  if (columns.length === 0) return null;
  const indexes = await runner.rows(PG_INDEXES, [table]);
  const split = (value: unknown) => String(value).split(',').filter(Boolean);
  const primary = indexes.find((i) => i['is_primary'] === true);
  return {
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
  };
}

async function inspectMysql(
  runner: SchemaRunner,
  dialect: RelationalDialect,
  table: string,
): Promise<LiveTable | null> {
  const columns = await runner.rows(
    `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLLATION_NAME AS collation
     FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
    [table],
  );
  if (columns.length === 0) return null;
  const parts = await runner.rows(
    `SELECT INDEX_NAME AS name, COLUMN_NAME AS col FROM information_schema.STATISTICS
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
    [table],
  );
  const byIndex = new Map<string, string[]>();
  for (const p of parts) {
    const name = String(p['name']);
    byIndex.set(name, [...(byIndex.get(name) ?? []), String(p['col'])]);
  }
  return {
    table,
    columns: columns.map((c) => ({
      name: String(c['name']),
      type: normaliseLiveType(dialect, String(c['type'])),
      nullable: String(c['nullable']) === 'YES',
      collation: c['collation'] === null || c['collation'] === undefined ? null : String(c['collation']),
    })),
    primaryKey: byIndex.get('PRIMARY') ?? [],
    indexes: [...byIndex].filter(([name]) => name !== 'PRIMARY').map(([name, cols]) => ({ name, columns: cols })),
  };
}
