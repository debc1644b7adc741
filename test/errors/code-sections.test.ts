/**
 * The code table is spread from one section per area (src/error-codes/*.ts); a spread keeps the
 * last of two equal keys silently, so a code defined in two sections would lose one row.
 */
import { ERROR_CODE_TABLE } from '../../src/error-codes';
import { CASSANDRA_CODES } from '../../src/error-codes/cassandra';
import { CLI_CODES } from '../../src/error-codes/cli';
import { COSMOS_CODES } from '../../src/error-codes/cosmos';
import { DURATION_CODES } from '../../src/error-codes/durations';
import { MODEL_CODES } from '../../src/error-codes/model';
import { MONGODB_CODES } from '../../src/error-codes/mongodb';
import { REDIS_CODES } from '../../src/error-codes/redis';
import { RELATIONAL_CODES } from '../../src/error-codes/relational';
import { SHARED_CODES } from '../../src/error-codes/shared';

const SECTIONS = [
  SHARED_CODES,
  MODEL_CODES,
  DURATION_CODES,
  CLI_CODES,
  CASSANDRA_CODES,
  COSMOS_CODES,
  MONGODB_CODES,
  REDIS_CODES,
  RELATIONAL_CODES,
];

test('every section row is a row of the table, and no code is in two sections', () => {
  const codes = SECTIONS.flatMap((section) => Object.keys(section));
  expect(new Set(codes).size).toBe(codes.length);
  expect(codes.sort()).toEqual(Object.keys(ERROR_CODE_TABLE).sort());
});
