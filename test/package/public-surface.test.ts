/**
 * The deliberate public surface: what each entry point exports, values and types, pinned as an
 * API report (public-api.json). A name added to or dropped from an entry point fails here until
 * the report is updated on purpose, in the same change.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exportedNames } from './exported-names';

const REPORT = path.join(__dirname, 'public-api.json');
const INTERNALS = ['describePlace', 'fieldOf', 'findEntity', 'isPortableIdentifier', 'keyMembers', 'resolveWriteTtl'];

describe('public surface', () => {
  const actual = exportedNames();

  test('every entry point exports exactly the names of the API report', () => {
    const report = JSON.parse(fs.readFileSync(REPORT, 'utf8')) as Record<string, string[]>;
    expect(actual).toEqual(report);
  });

  test('the root export carries none of the internal helpers, at type or run time', () => {
    const root = require('../../src') as Record<string, unknown>;
    expect(INTERNALS.filter((name) => actual['lifespan-orm']?.includes(name) || name in root)).toEqual([]);
  });

  test('the internal helpers still exist where the providers import them from', () => {
    const types = require('../../src/model/types') as Record<string, unknown>;
    expect(['fieldOf', 'findEntity', 'keyMembers'].filter((name) => typeof types[name] !== 'function')).toEqual([]);
  });
});
