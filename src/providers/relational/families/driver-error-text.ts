/** Reading a driver error's wording: what every family's key-violation parser (<family>/key-violations.ts) shares. */

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
