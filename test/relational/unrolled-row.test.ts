/**
 * The unrolled row codecs read and set exactly what the loops over member names did, for any
 * member name (a name becomes a string literal in generated code), and fall back to the loop
 * where code generation from strings is off.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { columnFill, memberFill } from '../../src/providers/relational/table/unrolled-row';

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

  test('with code generation from strings disallowed, the loops do the same', () => {
    // The module has no imports but types: transpiled alone, it runs in a plain node.
    const source = fs.readFileSync(
      path.resolve(__dirname, '../../src/providers/relational/table/unrolled-row.ts'),
      'utf8',
    );
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'lifespan-unrolled-'));
    const file = path.join(dir, 'unrolled-row.js');
    fs.writeFileSync(
      file,
      ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText,
    );
    const script = `
      const { columnFill, memberFill } = require(${JSON.stringify(file)});
      const cols = [];
      columnFill(['a', 'b c'], [(v) => v * 2, (v) => v + '!'])({ a: 2, 'b c': 'x' }, cols);
      const instance = {};
      memberFill(['p', 'q'], [1, 0], [(r) => r, (r) => r])(instance, ['zero', 'one']);
      process.stdout.write(JSON.stringify({ cols, instance }));
    `;
    const out = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '-e', script], {
      encoding: 'utf8',
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(JSON.parse(out)).toEqual({ cols: [4, 'x!'], instance: { p: 'one', q: 'zero' } });
  });
});
