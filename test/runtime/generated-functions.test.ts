/**
 * The unrolled row codecs read and set exactly what the loops over member names did, for any
 * member name (a name becomes a string literal in generated code); they and the fixed-arity SQLite
 * calls fall back to the loop and the spread call where code generation from strings is off.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import Database from 'better-sqlite3';
import { allWith, getWith, runWith } from '../../src/providers/relational/drivers/sqlite-calls';
import { generatedFunction } from '../../src/runtime/generated-function';
import { columnFill, memberFill } from '../../src/runtime/unrolled-fill';

const NAMES = ['plain', 'a b', "it's", 'quote"d', 'back\\slash', 'line\u2028sep', '${x}', '\n', 'ünï', 'constructor'];

describe('unrolled row codecs', () => {
  test('columnFill reads every member, whatever its name, through its own encoder', () => {
    const values = Object.fromEntries(NAMES.map((n, i) => [n, i]));
    const cols: unknown[] = [];
    columnFill(
      NAMES,
      NAMES.map((_, i) => (v: unknown) => `${i}:${String(v)}`),
    )(values, cols);
    expect(cols).toEqual(NAMES.map((_, i) => `${i}:${i}`));
  });

  test('memberFill sets every member in the given order from the given row positions', () => {
    const row = NAMES.map((_, i) => i * 10);
    const positions = NAMES.map((_, i) => NAMES.length - 1 - i);
    const instance: Record<string, unknown> = {};
    memberFill(
      NAMES,
      positions,
      NAMES.map(() => (r: unknown) => (r as number) + 1),
    )(instance, row);
    expect(Object.keys(instance)).toEqual(NAMES);
    expect(NAMES.map((n) => instance[n])).toEqual(positions.map((p) => p * 10 + 1));
  });

  test('memberFill reads an object row by column name (a Cassandra row) as well as an array row by position', () => {
    const instance: Record<string, unknown> = {};
    memberFill(
      ['a', 'b c'],
      ['col_a', "it's"],
      [(r) => r, (r) => `${String(r)}!`],
    )(instance, {
      col_a: 1,
      "it's": 'x',
    });
    expect(instance).toEqual({ a: 1, 'b c': 'x!' });
  });

  test('a body that does not parse is raised, not hidden behind the slow path', () => {
    expect(() => generatedFunction([], [], 'x', 'return x +;')).toThrow(SyntaxError);
  });

  test('the fixed-arity SQLite calls bind every parameter in order, for none, a few and more than are unrolled', () => {
    const db = new Database(':memory:');
    const columns = Array.from({ length: 120 }, (_, i) => `c${i}`);
    db.exec(`CREATE TABLE t (${columns.join(', ')})`);
    for (const n of [1, 3, 100, 101, 120]) {
      const values = Array.from({ length: n }, (_, i) => i * n);
      const insert = db.prepare(
        `INSERT INTO t (${columns.slice(0, n).join(', ')}) VALUES (${values.map(() => '?').join(', ')})`,
      );
      expect(runWith(insert, values).changes).toBe(1);
      const read = db
        .prepare(`SELECT ${columns.slice(0, n).join(', ')} FROM t WHERE c0 = ? AND c${n - 1} = ?`)
        .raw(true);
      expect(getWith(read, [0, (n - 1) * n])).toEqual(values);
      expect(allWith(read, [0, (n - 1) * n])).toEqual([values]);
    }
    expect(getWith(db.prepare('SELECT count(*) FROM t').pluck(), [])).toBe(5);
    db.close();
  });

  test('with code generation from strings disallowed, the loops and spread calls do the same', () => {
    // These modules import nothing but types and each other: transpiled alone, they run in a plain node.
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'lifespan-unrolled-'));
    for (const file of [
      'runtime/generated-function',
      'runtime/unrolled-fill',
      'providers/relational/drivers/sqlite-calls',
    ]) {
      const source = fs.readFileSync(path.resolve(__dirname, '../../src', `${file}.ts`), 'utf8');
      const out = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, `${file}.js`), out);
    }
    const script = `
      const { columnFill, memberFill } = require(${JSON.stringify(path.join(dir, 'runtime/unrolled-fill.js'))});
      const { runWith, getWith } = require(${JSON.stringify(path.join(dir, 'providers/relational/drivers/sqlite-calls.js'))});
      const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
      const cols = [];
      columnFill(['a', 'b c'], [(v) => v * 2, (v) => v + '!'])({ a: 2, 'b c': 'x' }, cols);
      const instance = {};
      memberFill(['p', 'q'], [1, 0], [(r) => r, (r) => r])(instance, ['zero', 'one']);
      const db = new Database(':memory:');
      db.exec('CREATE TABLE t (a, b)');
      const changes = runWith(db.prepare('INSERT INTO t VALUES (?, ?)'), [1, 'two']).changes;
      const row = getWith(db.prepare('SELECT a, b FROM t WHERE a = ?'), [1]);
      process.stdout.write(JSON.stringify({ cols, instance, changes, row }));
    `;
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '-e', script], {
      encoding: 'utf8',
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(JSON.parse(out)).toEqual({
      cols: [4, 'x!'],
      instance: { p: 'one', q: 'zero' },
      changes: 1,
      row: { a: 1, b: 'two' },
    });
  });
});
