/**
 * A statement's `$n` placeholders written as SQL literals, for PostgreSQL's simple query protocol
 * (several statements in one message take no parameters). Only the plain values lifespan binds
 * there are accepted (block bounds like '(64,0)', ISO instants, numbers); quoted identifiers and
 * string literals of the statement itself are left as they are.
 */
export function withLiterals(sql: string, params: readonly unknown[]): string {
  return sql.replace(/"(?:[^"]|"")*"|'(?:[^']|'')*'|\$(\d+)/g, (token, index?: string) =>
    index === undefined ? token : literal(params[Number(index) - 1]),
  );
}

/** Text without quotes or backslashes reads the same whatever standard_conforming_strings says. */
const PLAIN_TEXT = /^[^'\\]*$/;

function literal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && PLAIN_TEXT.test(value)) return `'${value}'`;
  throw new TypeError(`a parameter cannot be written as a literal: ${String(value)}`);
}
