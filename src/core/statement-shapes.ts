/**
 * A plan step's statements are plain, editable text, so a store runs one only when it has exactly
 * the shape its kind of step is made with: a whitelist, not a list of forbidden words (an appended
 * `; DELETE …`, a comment hiding a `DROP`, or an `UPDATE` that expires every row names none of them).
 */

/** One statement shape a kind of step may run, anchored at both ends. */
export interface StatementShape {
  readonly pattern: RegExp;
  /** Running it can lose data (it needs allowDestructive). */
  readonly destroys: boolean;
}

const QUOTED = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`/g;
/** A statement separator or a comment opener (SQL, CQL, MySQL), outside quotes. */
const SEPARATOR_OR_COMMENT = /;|--|\/\*|\/\/|#/;

/** Why the statements are not what a step of this kind runs, or null when every one has an allowed shape. */
export function unlistedStatement(
  statements: readonly string[],
  shapes: readonly StatementShape[],
  what: string,
): string | null {
  for (const [i, statement] of statements.entries()) {
    if (SEPARATOR_OR_COMMENT.test(statement.replace(QUOTED, "''"))) {
      return `has a second statement or a comment in statement ${i + 1}; a ${what} step runs one statement each, as plan() wrote it`;
    }
    if (!shapes.some((shape) => shape.pattern.test(statement))) {
      return `has statement ${i + 1} that a ${what} step does not run (${JSON.stringify(statement.slice(0, 80))})`;
    }
  }
  return null;
}

/** Whether any statement has a shape that can lose data. */
export function destroysData(statements: readonly string[], shapes: readonly StatementShape[]): boolean {
  return statements.some((statement) => shapes.some((shape) => shape.destroys && shape.pattern.test(statement)));
}
