import { internalError } from './internal-error';

/** The mysql2 connection settings that change the shape of the rows a read answers. */
export interface MysqlReadSettings {
  readonly rowsAsArray?: boolean;
  readonly nestTables?: boolean | string;
  readonly typeCast?: unknown;
}

/** A result column as mysql2 describes it. */
export interface MysqlField {
  readonly name: string;
}

/**
 * How a read is sent on a connection with these settings. Positional unless the settings nest rows
 * by table, turn type casting off (every value a Buffer) or cast with a function of the user's (a
 * BLOB read as text would come back as other bytes): only the options-object form can override
 * those per statement. Read on each call (three property reads: cheaper than a cache).
 */
export function mysqlReadForm(settings: MysqlReadSettings | undefined): 'positional' | 'options' {
  if (!settings) return 'positional';
  const { nestTables, typeCast } = settings;
  return nestTables || typeCast === false || typeof typeCast === 'function' ? 'options' : 'positional';
}

/**
 * The per-statement `typeCast` of the options-object form: mysql2's own reading of every column.
 * A function, because both of mysql2's row parsers (the generated one and the static one of
 * `disableEval`) let a statement's typeCast function replace the connection's, while `true` leaves
 * a connection's function in place in the generated parser. One function for every call.
 */
export function passThroughTypeCast(_field: unknown, next: () => unknown): unknown {
  return next();
}

/**
 * The rows of a positional read as arrays in select-list order: mysql2 answers objects keyed by
 * column name unless the connection asks for arrays. lifespan's member reads name their columns
 * by position ('0', '1', …: stored as an object's indexed elements), as do the purge's key picks;
 * the other reads (counts, VERSION(), a remaining TTL) select one column, read by the name mysql2
 * reports. A wider read must name its columns by position: two columns of one name would share
 * one key of the row object, and a value would be read under the wrong member without an error.
 */
export function rowsInSelectOrder(
  rows: unknown[],
  fields: readonly MysqlField[] | undefined,
  entity?: string,
): unknown[][] {
  if (!fields) return rows as unknown[][];
  const width = fields.length;
  const byPosition = fields.every((f, i) => f.name === String(i));
  // Checked before the shortcuts below, so a statement that breaks the rule fails on every
  // connection and on an empty result too, not only where rows come back as objects.
  if (!byPosition && width > 1) {
    throw internalError(
      `a MariaDB/MySQL read of ${width} columns does not name them by position ('0', '1', …)`,
      entity,
    );
  }
  if (rows.length === 0 || Array.isArray(rows[0])) return rows as unknown[][];
  const out = new Array<unknown[]>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string | number, unknown>;
    out[r] = byPosition ? positional(row, width) : [row[(fields[0] as MysqlField).name]];
  }
  return out;
}

function positional(row: Record<number, unknown>, width: number): unknown[] {
  const values = new Array<unknown>(width);
  for (let i = 0; i < width; i++) values[i] = row[i];
  return values;
}
