/**
 * The code table is spread from one section per area (src/error-codes/*.ts); a spread keeps the
 * last of two equal keys silently, so a code defined in two sections would lose one row.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_CODE_TABLE } from '../../src/error-codes';

const FOLDER = path.resolve(__dirname, '..', '..', 'src', 'error-codes');

/** Every section file of the folder (a new store's section too), with the rows it exports. */
const SECTIONS = fs
  .readdirSync(FOLDER)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => {
    const exported = require(path.join(FOLDER, file)) as Record<string, object>;
    const rows = Object.entries(exported).filter(([name]) => name.endsWith('_CODES'));
    return { file, rows: rows.length === 1 ? rows[0]![1] : undefined };
  });

test('each section file exports one *_CODES table', () => {
  expect(SECTIONS.filter((s) => s.rows === undefined).map((s) => s.file)).toEqual([]);
  expect(SECTIONS.length).toBeGreaterThan(5);
});

test('every section row is a row of the table, and no code is in two sections', () => {
  const codes = SECTIONS.flatMap((section) => Object.keys(section.rows ?? {}));
  expect(new Set(codes).size).toBe(codes.length);
  expect(codes.sort()).toEqual(Object.keys(ERROR_CODE_TABLE).sort());
});
