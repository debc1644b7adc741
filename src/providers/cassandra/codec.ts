import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import type { ColumnMapping } from './compile';
import { STORE } from './semantics';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A member value → the value bound for its column. Wrong kinds are refused here, naming the value,
 * rather than by the driver's encoder. bigint is bound as its decimal text, which the driver
 * encodes whether or not the client was built with encoding.useBigIntAsLong.
 */
export function toCql(column: ColumnMapping, value: unknown, entity: string): unknown {
  if (value === undefined || value === null) {
    if (column.kind !== 'regular' || !column.nullable) {
      throw bad(
        column,
        entity,
        value,
        column.kind === 'regular' ? 'is required (the member is not nullable)' : 'is a key member and must be set',
      );
    }
    return null;
  }
  switch (column.fieldType) {
    case 'string':
      return expect(typeof value === 'string', column, entity, value, 'a string');
    case 'number':
      // CQL double could hold NaN and ±Infinity, but no other store can: refused like everywhere else.
      return expect(typeof value === 'number' && Number.isFinite(value), column, entity, value, 'a finite number');
    case 'integer':
      return expect(
        typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX,
        column,
        entity,
        value,
        'a whole number within CQL int (-2147483648..2147483647)',
      );
    case 'bigint': {
      const big =
        typeof value === 'bigint'
          ? value
          : typeof value === 'number' && Number.isSafeInteger(value)
            ? BigInt(value)
            : undefined;
      if (big === undefined || big < INT64_MIN || big > INT64_MAX) {
        throw bad(column, entity, value, 'must be a bigint within CQL bigint (64-bit)');
      }
      return big.toString();
    }
    case 'boolean':
      return expect(typeof value === 'boolean', column, entity, value, 'a boolean');
    case 'date':
      return expect(value instanceof Date && !Number.isNaN(value.getTime()), column, entity, value, 'a valid Date');
    case 'uuid':
      return expect(typeof value === 'string' && UUID.test(value), column, entity, value, 'a UUID string');
    case 'json': {
      let text: string | undefined;
      try {
        text = JSON.stringify(value);
      } catch (error) {
        throw bad(
          column,
          entity,
          value,
          `cannot be written as JSON (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      if (text === undefined) throw bad(column, entity, value, 'cannot be written as JSON');
      return text;
    }
    case 'binary':
      if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? value : Buffer.from(value);
      throw bad(column, entity, value, 'must be a Buffer or Uint8Array');
    case 'counter':
      throw new LifespanError('CASSANDRA_COUNTER_WRITE', 'counter columns are changed by increments, not written', {
        entity,
        member: column.member,
        store: STORE,
        hint: 'update counters with your own UPDATE … SET c = c + ? statement',
      });
  }
}

/** A column value read back → the member value. */
export function fromCql(column: ColumnMapping, raw: unknown, entity: string): unknown {
  if (raw === null || raw === undefined) return null;
  switch (column.fieldType) {
    case 'bigint':
      return typeof raw === 'bigint' ? raw : BigInt(String(raw));
    case 'counter':
      return Number(typeof raw === 'bigint' ? raw : String(raw));
    case 'uuid':
      return String(raw);
    case 'json':
      try {
        return JSON.parse(String(raw)) as unknown;
      } catch {
        throw new LifespanError('CASSANDRA_BAD_JSON', `column ${column.column} holds text that is not JSON`, {
          entity,
          member: column.member,
          store: STORE,
          hint: 'the row was written outside lifespan; fix or rewrite it',
        });
      }
    default:
      return raw;
  }
}

function expect(ok: boolean, column: ColumnMapping, entity: string, value: unknown, what: string): unknown {
  if (!ok) throw bad(column, entity, value, `must be ${what}`);
  return value;
}

function bad(column: ColumnMapping, entity: string, value: unknown, problem: string): LifespanError {
  return new LifespanError(ErrorCodes.VALUE_INVALID, `value ${shown(value)} ${problem}`, {
    entity,
    member: column.member,
    store: STORE,
    hint: `column ${column.column} is ${column.fieldType}`,
  });
}

function shown(value: unknown): string {
  return value instanceof Date && Number.isNaN(value.getTime()) ? 'Invalid Date' : showValue(value);
}
