/** SQL text that SQLite and PostgreSQL share (MariaDB/MySQL write their own). */

/** `ON CONFLICT (keys) DO UPDATE SET ...`. */
export function onConflict(keyColumns: readonly string[], sets: readonly string[]): string {
  const action = sets.length > 0 ? `DO UPDATE SET ${sets.join(', ')}` : 'DO NOTHING';
  return `ON CONFLICT (${keyColumns.join(', ')}) ${action}`;
}

/** A compound key's "after the last key" as one row-value comparison, which both turn into an index range. */
export function rowValueAfter(columns: readonly string[], arg: (i: number) => string): string {
  return `(${columns.join(', ')}) > (${columns.map((_, i) => arg(i)).join(', ')})`;
}

/** The message of a driver error, or '' when it has none. */
export function messageOf(error: { readonly message?: unknown }): string {
  return typeof error.message === 'string' ? error.message : '';
}

/** Whether the columns a driver error names are exactly the key columns (in any order). */
export function sameColumns(named: readonly string[] | undefined, keyColumns: readonly string[]): boolean {
  return named !== undefined && named.length === keyColumns.length && named.every((c) => keyColumns.includes(c));
}

/** The "already exists" wording every driver uses for a table, index or column that is there. */
export const ALREADY_EXISTS = /duplicate column name|already exists/i;
