import { LifespanError } from '../../errors';
import { checkValue, valueInvalid, type ValuePlace } from '../../core/values';
import type { ColumnMapping } from './compile';
import { STORE } from './semantics';

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * A member value → the value bound for its column: checked by the store-neutral checker, then held
 * to CQL's own limits. bigint is bound as its decimal text, which the driver encodes whether or not
 * the client was built with encoding.useBigIntAsLong.
 */
export function toCql(column: ColumnMapping, value: unknown, entity: string): unknown {
  return toCqlAt(column, value, { entity, member: column.member, store: STORE, key: column.kind !== 'regular' });
}

/** toCql with the column's place given (a write plan holds one per column, so a row allocates none). */
export function toCqlAt(column: ColumnMapping, value: unknown, place: ValuePlace): unknown {
  if (column.fieldType === 'counter' && value !== null && value !== undefined) {
    throw new LifespanError('CASSANDRA_COUNTER_WRITE', 'counter columns are changed by increments, not written', {
      entity: place.entity,
      member: column.member,
      store: STORE,
      hint: 'update counters with your own UPDATE … SET c = c + ? statement',
    });
  }
  const checked = checkValue(column.fieldType, column.nullable, value, place);
  if (checked === null) return null;
  switch (column.fieldType) {
    case 'integer':
      if ((checked as number) < INT32_MIN || (checked as number) > INT32_MAX) {
        throw valueInvalid(place, value, 'is past CQL int (-2147483648..2147483647)', `column ${column.column} is int`);
      }
      return checked;
    case 'bigint':
      return (checked as bigint).toString();
    case 'json':
      return JSON.stringify(checked);
    case 'binary':
      return Buffer.isBuffer(checked) ? checked : Buffer.from(checked as Uint8Array);
    case 'string':
    case 'number':
    case 'boolean':
    case 'date':
    case 'uuid':
    case 'counter':
      // The driver takes these as the checker returns them (a counter value was refused above).
      return checked;
    default: {
      const unhandled: never = column.fieldType;
      return unhandled;
    }
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
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'date':
    case 'binary':
      // The driver already returns these in the member's form.
      return raw;
    default: {
      const unhandled: never = column.fieldType;
      return unhandled;
    }
  }
}
