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
