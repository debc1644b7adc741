import { internalError } from './internal-error';

/**
 * A statement's `$n` placeholders written as SQL literals, for PostgreSQL's simple query protocol
 * (several statements in one message take no parameters). Only what lifespan binds there is
 * accepted: finite numbers and plain text (block bounds like '(64,0)', ISO instants). The
 * statement's quoted identifiers and plain string literals are left as they are; SQL this scanner
 * does not read (comments, E'' and other prefixed strings, dollar quotes, `$` in a name) is refused,
 * as is any other value: an internal error that never shows the value. `entity` names the statement's.
 */
export function withLiterals(sql: string, params: readonly unknown[], entity?: string): string {
  return sql.replace(TOKENS, (token, index?: string) => {
    if (index !== undefined) return literal(params[Number(index) - 1], Number(index), entity);
    const unread = unreadConstruct(token);
    if (unread === null) return token;
    throw internalError(
      `a statement sent with its parameters as literals holds ${unread}, which is not read for placeholders`,
      entity,
    );
  });
}

/**
 * Quoted identifiers, plain string literals, placeholders, names (with a quote right after one:
 * a prefixed string, E'…', B'…', X'…'), comment openers and any other `$` (a dollar quote).
 */
const TOKENS = /"(?:[^"]|"")*"|'(?:[^']|'')*'|\$(\d+)|[A-Za-z_][A-Za-z0-9_$]*'?|--|\/\*|\$/g;

function unreadConstruct(token: string): string | null {
  if (token === '--' || token === '/*') return 'a comment';
  if (token === '$') return 'a dollar quote';
  if (!/^[A-Za-z_]/.test(token)) return null;
  if (token.endsWith("'")) return "a prefixed string (E'…' or like it)";
  if (token.includes('$')) return "a name with '$'";
  return null;
}

/** Characters that read the same inside '…' whatever standard_conforming_strings says: enough for TIDs and ISO instants. */
const PLAIN_TEXT = /^[0-9A-Za-z:.+\-(), ]*$/;

function literal(value: unknown, position: number, entity: string | undefined): string {
  // Parenthesised: after a minus, `-$1` with -5 must not become `--5`, a comment.
  if (typeof value === 'number' && Number.isFinite(value)) return `(${value})`;
  if (typeof value === 'string' && PLAIN_TEXT.test(value)) return `'${value}'`;
  const kind = value === null ? 'null' : typeof value === 'string' ? 'text with other characters' : typeof value;
  throw internalError(
    `parameter $${position} (${kind}) cannot be written as a literal: only finite numbers and plain text ` +
      '(letters, digits, space and : . + - ( ) ,) can',
    entity,
  );
}
