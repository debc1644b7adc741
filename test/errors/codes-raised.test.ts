/**
 * Every code of the error table is raised somewhere: a code nothing throws is dead (it is still
 * listed in docs/errors.md and promised to callers who catch it).
 */
import { readFileSync, readdirSync, statSync } from 'fs';
import path from 'path';
import { ERROR_CODE_TABLE, ErrorCodes } from '../../src/error-codes';

const SRC = path.join(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return full.endsWith('.ts') &&
      !full.endsWith('error-codes.ts') &&
      !full.includes(`${path.sep}error-codes${path.sep}`)
      ? [readFileSync(full, 'utf8')]
      : [];
  });
}

test('every code in ERROR_CODE_TABLE is raised somewhere in src', () => {
  const text = sources(SRC).join('\n');
  const named = new Map<string, string>(Object.entries(ErrorCodes).map(([name, code]) => [code, name]));
  const unraised = Object.keys(ERROR_CODE_TABLE).filter(
    (code) =>
      !text.includes(`'${code}'`) &&
      !text.includes(`"${code}"`) &&
      !(named.has(code) && text.includes(`ErrorCodes.${named.get(code)}`)),
  );
  expect(unraised).toEqual([]);
});
