/**
 * Every code of the error table is raised somewhere: a code nothing throws is dead (it is still
 * listed in docs/errors.md and promised to callers who catch it).
 *
 * A mention is not a raise: a code in a message, a hint, a comment or a comparison
 * (`error.code === 'X'`) raises nothing. The type checker finds the raise sites: a code value
 * given where an error code is expected — the code argument of `new LifespanError(…)` and its
 * subclasses, of a factory whose parameter is a code, `code: …` of a problem or a pattern row, a
 * function that returns the code to raise — and the code literals it may evaluate to there (`'X'`,
 * `ErrorCodes.X`, a constant, `c ? 'X' : 'Y'`, `given ?? 'X'`).
 */
import path from 'path';
import * as ts from 'typescript';
import { ERROR_CODE_TABLE } from '../../src/error-codes';

const SRC = path.join(__dirname, '../../src');
const CODES = new Set(Object.keys(ERROR_CODE_TABLE));

/** The table itself (and ErrorCodes, typed by it) lists every code: it raises none. */
function isTable(file: string): boolean {
  return file.endsWith(`${path.sep}error-codes.ts`) || file.includes(`${path.sep}error-codes${path.sep}`);
}

function program(): ts.Program {
  const config = ts.readConfigFile(path.join(__dirname, '../../tsconfig.json'), (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, path.join(__dirname, '../..'));
  const files = parsed.fileNames.filter((f) => path.resolve(f).startsWith(SRC + path.sep));
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

/** A type every value of which is a code of the table (ErrorCode, CodeOf<…>, a union of codes; optional). */
function isCodeType(type: ts.Type | undefined): boolean {
  if (!type) return false;
  const parts = (type.isUnion() ? type.types : [type]).filter(
    (t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)),
  );
  return parts.length > 0 && parts.every((t) => t.isStringLiteral() && CODES.has(t.value));
}

/** The code literals an expression may evaluate to: only what can be told from the expression itself. */
function literalCodes(node: ts.Expression, checker: ts.TypeChecker): string[] {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    return literalCodes(node.expression, checker);
  }
  if (ts.isConditionalExpression(node)) {
    return [...literalCodes(node.whenTrue, checker), ...literalCodes(node.whenFalse, checker)];
  }
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)
  ) {
    return [...literalCodes(node.left, checker), ...literalCodes(node.right, checker)];
  }
  // 'X', ErrorCodes.X, a constant: one literal type. A parameter or a field typed by the union
  // (`code: ErrorCode`) passes a code on; the raise site is where its value was chosen.
  const type = checker.getTypeAtLocation(node);
  return type.isStringLiteral() && CODES.has(type.value) ? [type.value] : [];
}

/** Where a value is given to something typed as an error code. */
function givenAsCode(node: ts.Node): ts.Expression | undefined {
  const parent = node.parent;
  if (
    (ts.isCallExpression(parent) || ts.isNewExpression(parent)) &&
    parent.arguments?.includes(node as ts.Expression)
  ) {
    return node as ts.Expression;
  }
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return parent.initializer;
  if (ts.isReturnStatement(parent) && parent.expression === node) return parent.expression;
  if (ts.isArrowFunction(parent) && parent.body === node) return node as ts.Expression;
  return undefined;
}

/** Every code raised in src, with the file that raises it. */
function raiseSites(): Map<string, string[]> {
  const built = program();
  const checker = built.getTypeChecker();
  const raised = new Map<string, string[]>();
  for (const source of built.getSourceFiles()) {
    if (source.isDeclarationFile || !path.resolve(source.fileName).startsWith(SRC + path.sep)) continue;
    if (isTable(path.resolve(source.fileName))) continue;
    const visit = (node: ts.Node): void => {
      const site = ts.isExpression(node) ? givenAsCode(node) : undefined;
      if (site && isCodeType(checker.getContextualType(site))) {
        for (const code of literalCodes(site, checker)) {
          raised.set(code, [...(raised.get(code) ?? []), path.relative(SRC, source.fileName)]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return raised;
}

const raised = raiseSites();

test('every code in ERROR_CODE_TABLE is raised somewhere in src', () => {
  expect([...CODES].filter((code) => !raised.has(code))).toEqual([]);
});

test('the scan sees raise sites of every shape, and no mention as one', () => {
  // A literal to a constructor, a constant (expiry-resolver.ts), ErrorCodes.X, a factory's code
  // parameter (duration.ts), `code:` of a connection pattern row.
  expect(raised.get('CASSANDRA_TTL_PAST_CEILING')).toBeDefined();
  expect(raised.get('RELATIONAL_TTL_ALREADY_EXPIRED')).toContain(
    path.join('providers', 'relational', 'write', 'expiry-resolver.ts'),
  );
  expect(raised.get('VALUE_INVALID')).toContain(path.join('providers', 'relational', 'write', 'expiry-resolver.ts'));
  expect(raised.get('STORE_AUTH_FAILED')).toContain(path.join('providers', 'connection-errors.ts'));
  // semantics.ts names the code in explain() text only: it raises nothing.
  expect(raised.get('RELATIONAL_TTL_ALREADY_EXPIRED')).not.toContain(
    path.join('providers', 'relational', 'semantics.ts'),
  );
});
