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

/** `?, ?, …`: one placeholder per table name. */
export function placeholders(tables: readonly string[]): string {
  return tables.map(() => '?').join(', ');
}

/** Rows grouped by their `tbl` column, in the order the query returned them. */
export function byTable(rows: readonly Record<string, unknown>[]): Map<string, Record<string, unknown>[]> {
  const grouped = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const name = String(row['tbl']);
    let list = grouped.get(name);
    if (!list) grouped.set(name, (list = []));
    list.push(row);
  }
  return grouped;
}

/** Index rows (one per column, in index order) → indexes in first-seen order. */
export function groupIndexes(
  rows: readonly Record<string, unknown>[],
  nameKey: string,
  columnKey: string,
): LiveIndex[] {
  const byIndex = new Map<string, string[]>();
  for (const row of rows) {
    const name = String(row[nameKey]);
    let cols = byIndex.get(name);
    if (!cols) byIndex.set(name, (cols = []));
    cols.push(String(row[columnKey]));
  }
  return [...byIndex].map(([name, columns]) => ({ name, columns }));
}
