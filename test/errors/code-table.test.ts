/**
 * One typed code table (src/error-codes.ts): every code the sources raise is a row of it, raised
 * by the class its row names (so one failure has one code and one class on every store), and the
 * CLI's exit code is the row's exit family.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { ERROR_CODE_TABLE, type ErrorCode, type ErrorFamily } from '../../src/error-codes';
import {
  EXIT_INTERNAL,
  EXIT_MODEL,
  EXIT_STORE,
  EXIT_USAGE,
  EXIT_USER_CODE,
  exitCodeFor,
} from '../../src/cli/exit-codes';
import { LifespanError, ModelError, StoreError, TtlError, UnsupportedTtlError } from '../../src/errors';

const SRC = path.resolve(__dirname, '..', '..', 'src');
const CODE_SHAPE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;
/**
 * Driver and system codes lifespan matches on but never raises, and other upper-case names it
 * writes: CQL consistency levels, Redis read-only script commands, the environment variables
 * `lifespan init` puts in a config.
 */
const FOREIGN =
  /^(SQLITE_|ER_|EAI_)|^(LOCAL_ONE|LOCAL_QUORUM|LOCAL_SERIAL|EACH_QUORUM|EVAL_RO|EVALSHA_RO|FCALL_RO|DATABASE_URL|MARIADB_URL|MYSQL_URL|REDIS_URL|MONGODB_URI|COSMOS_ENDPOINT|COSMOS_KEY|CASSANDRA_CONTACT_POINTS)$/;
/** Classes that carry a code, by the family their constructor stands for. */
const CLASS_FAMILY: Record<string, ErrorFamily> = {
  LifespanError: 'LifespanError',
  TtlError: 'TtlError',
  UnsupportedTtlError: 'UnsupportedTtlError',
  StoreError: 'StoreError',
  MongoCommitError: 'StoreError',
};

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .filter((f) => f.endsWith('.ts'));
}

interface Raised {
  readonly code: string;
  readonly family: ErrorFamily | 'any';
  readonly where: string;
}

/** The code literals an expression may evaluate to (`'X'`, `ErrorCodes.X`, `c ? 'X' : 'Y'`). */
function codesOf(node: ts.Node | undefined, sharedCodes: Record<string, string>): string[] {
  if (!node) return [];
  if (ts.isStringLiteralLike(node)) return [node.text];
  if (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'ErrorCodes') {
    return [sharedCodes[node.name.text] ?? `ErrorCodes.${node.name.text}`];
  }
  if (ts.isConditionalExpression(node)) {
    return [...codesOf(node.whenTrue, sharedCodes), ...codesOf(node.whenFalse, sharedCodes)];
  }
  return [];
}

/** Every code-shaped string literal in src, and the class each `new …Error(code, …)` gives it. */
function scan(): { literals: Raised[]; thrown: Raised[]; factoryCalls: { factory: string; store: string }[] } {
  const { ErrorCodes } = require('../../src/error-codes') as { ErrorCodes: Record<string, string> };
  const literals: Raised[] = [];
  const thrown: Raised[] = [];
  const factoryCalls: { factory: string; store: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const where = path.relative(SRC, file);
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) && CODE_SHAPE.test(node.text) && !FOREIGN.test(node.text)) {
        literals.push({ code: node.text, family: 'any', where });
      }
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const family = CLASS_FAMILY[node.expression.text];
        if (family) for (const code of codesOf(node.arguments?.[0], ErrorCodes)) thrown.push({ code, family, where });
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && where.startsWith('providers')) {
        factoryCalls.push({ factory: node.expression.text, store: where.split(path.sep)[1] ?? '' });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, thrown, factoryCalls };
}

const { literals, thrown, factoryCalls } = scan();
const table = ERROR_CODE_TABLE as Record<string, { family: ErrorFamily; exit: string }>;

describe('the one code table (src/error-codes.ts)', () => {
  test('every code-shaped string in src/ is a code of the table', () => {
    const outside = literals.filter((r) => !(r.code in table)).map((r) => `${r.code} (${r.where})`);
    expect(outside).toEqual([]);
    // The scan sees the throw sites: shared, store-specific and dynamically chosen codes.
    expect(literals.map((r) => r.code)).toEqual(
      expect.arrayContaining(['CASSANDRA_TTL_PAST_CEILING', 'COSMOS_BATCH_FAILED', 'RELATIONAL_TTL_ALREADY_EXPIRED']),
    );
  });

  test('every throw site raises its code as the class the table names, on every store', () => {
    expect(thrown.length).toBeGreaterThan(100);
    const wrong = thrown
      .filter((r) => table[r.code]?.family !== r.family)
      .map((r) => `${r.code} raised as ${r.family} in ${r.where}, table: ${table[r.code]?.family ?? 'missing'}`);
    expect(wrong).toEqual([]);
  });

  test('a refused plan (wrong store, edited step, conflict, destructive) has one code and one wording on every store', () => {
    const refusing = (factory: string) =>
      new Set(factoryCalls.filter((c) => c.factory === factory).map((c) => c.store));
    // No store calls the plan gate itself: the core's plan flow judges every store's plans.
    expect(refusing('checkPlan')).toEqual(new Set());
    expect(fs.readFileSync(path.join(SRC, 'core', 'plan-flow.ts'), 'utf8')).toMatch(/\bcheckPlan\(this\.rules\.steps/);
    const gateCodes = ['PLAN_WRONG_STORE', 'PLAN_BAD_STEP', 'PLAN_CONFLICT', 'PLAN_DESTRUCTIVE_NOT_ALLOWED'];
    const ownCodes = thrown.filter((r) => gateCodes.includes(r.code));
    expect(new Set(ownCodes.map((r) => r.where))).toEqual(new Set([path.join('core', 'plan-refusals.ts')]));
    expect(literals.map((r) => r.code)).not.toContain('PLAN_INVALID');
  });
});

describe("the CLI's exit code comes from the table", () => {
  const byFamily: Record<ErrorFamily, (code: ErrorCode) => LifespanError> = {
    LifespanError: (code) => new LifespanError(code, 'x'),
    ModelError: (code) => new ModelError([{ code, message: 'x' }]),
    TtlError: (code) => new TtlError(code as never, 1, 'x'),
    UnsupportedTtlError: (code) => new UnsupportedTtlError(code as never, 'x'),
    StoreError: (code) => new StoreError(code as never, 'x'),
  };
  const number = {
    usage: EXIT_USAGE,
    model: EXIT_MODEL,
    store: EXIT_STORE,
    'user-code': EXIT_USER_CODE,
    internal: EXIT_INTERNAL,
  };

  test.each(Object.keys(table))('%s', (code) => {
    const row = table[code]!;
    expect(exitCodeFor(byFamily[row.family](code as ErrorCode))).toBe(number[row.exit as keyof typeof number]);
  });

  test('the same code ends a run the same way whatever class carries it', () => {
    expect(exitCodeFor(new LifespanError('PLAN_CONFLICT', 'x'))).toBe(EXIT_STORE);
    expect(exitCodeFor(new StoreError('STORE_UNREACHABLE', 'x'))).toBe(EXIT_STORE);
    expect(exitCodeFor(new LifespanError('CLI_LOAD_FAILED', 'x'))).toBe(EXIT_USER_CODE);
    expect(exitCodeFor(new LifespanError('STORE_BAD_URL', 'x'))).toBe(EXIT_USAGE);
    expect(exitCodeFor(new LifespanError('NOT_IN_THE_TABLE' as ErrorCode, 'x'))).toBe(EXIT_INTERNAL);
    expect(exitCodeFor(new Error('x'))).toBe(EXIT_INTERNAL);
  });

  test('src/cli/exit-codes.ts keeps no list of codes of its own', () => {
    const text = fs.readFileSync(path.join(SRC, 'cli', 'exit-codes.ts'), 'utf8');
    expect(literals.filter((r) => r.where === path.join('cli', 'exit-codes.ts'))).toEqual([]);
    expect(text).not.toMatch(/ErrorCodes\./);
  });
});
