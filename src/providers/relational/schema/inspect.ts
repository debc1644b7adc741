import type { SchemaRunner } from '../drivers/schema-runner';
import type { RelationalDialect } from '../families/dialects';
import { familyOperations } from '../families/operations-by-dialect';
import type { LiveTable } from './live-table';

/**
 * Reads each named table (null when it does not exist) with two catalog queries for all of them —
 * one for columns, one for indexes — whatever the number of tables (the family's inspect.ts).
 */
export async function inspectTables(
  runner: SchemaRunner,
  dialect: RelationalDialect,
  tables: readonly string[],
): Promise<Map<string, LiveTable | null>> {
  const live = new Map<string, LiveTable | null>();
  for (const table of tables) live.set(table, null);
  if (tables.length === 0) return live;
  const found = await familyOperations(dialect).inspectTables(runner, tables);
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
