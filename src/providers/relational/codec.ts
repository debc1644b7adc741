import { checkValue } from '../../core/values';
import type { FieldType } from '../../model/types';
import type { ColumnSpec } from './compile';
import { sqlFamily } from './families/by-dialect';
import type { RelationalDialect } from './families/dialects';
import type { SqlFamily } from './families/family';
import { RELATIONAL_STORE } from './options';

/**
 * JS value ⇄ driver value, per dialect and field type. Encoders check the value first: a value
 * the column cannot hold exactly is a LifespanError naming it, never a silent conversion.
 */
export type Encoder = (value: unknown) => unknown;
export type Decoder = (raw: unknown) => unknown;

export interface Place {
  readonly entity: string;
  readonly member: string;
  /** A key member: never nullable, so a missing value cannot be fixed by declaring it nullable. */
  readonly key: boolean;
}

export function encoderFor(dialect: RelationalDialect, column: ColumnSpec, place: Place): Encoder {
  const convert = converterFor(sqlFamily(dialect), column.fieldType);
  const where = { ...place, store: RELATIONAL_STORE };
  return (value) => {
    const checked = checkValue(column.fieldType, column.nullable, value, where);
    return checked === null ? null : convert(checked);
  };
}

/** A checked value as the driver binds it (the compiled encoders of table/row-codec.ts share it). */
export type Converter = (value: unknown) => unknown;

export function converterFor(family: SqlFamily, type: FieldType): Converter {
  switch (type) {
    case 'bigint':
      return family.bindsBigint ? identity : (v) => (v as bigint).toString();
    case 'json':
      return (v) => JSON.stringify(v);
    case 'binary':
      return (v) => {
        const bytes = v as Uint8Array;
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      };
    case 'boolean':
      return family.bindsBoolean ? identity : (v) => (v ? 1 : 0);
    case 'date':
      return (v) => family.encodeInstant(v as Date);
    case 'string':
    case 'uuid':
    case 'number':
    case 'integer':
    case 'counter':
      return identity;
  }
}

const identity = (v: unknown) => v;

/** An instant as the dialect's family stores it: epoch ms, an ISO string, or a UTC DATETIME string. */
export function encodeInstant(dialect: RelationalDialect, date: Date): unknown {
  return sqlFamily(dialect).encodeInstant(date);
}

function decodeInstant(family: SqlFamily, raw: unknown): Date {
  if (raw instanceof Date) return raw;
  if (typeof raw === 'number' || typeof raw === 'bigint') return new Date(Number(raw));
  return family.parseInstantText(String(raw));
}

export function decoderFor(dialect: RelationalDialect, type: FieldType): Decoder {
  const decode = rawDecoder(sqlFamily(dialect), type);
  return (raw) => (raw === null || raw === undefined ? null : decode(raw));
}

function rawDecoder(family: SqlFamily, type: FieldType): Decoder {
  switch (type) {
    case 'string':
    case 'uuid':
      return (r) => (typeof r === 'string' ? r : String(r));
    case 'number':
    case 'integer':
    case 'counter':
      return (r) => (typeof r === 'number' ? r : Number(r));
    case 'bigint':
      return (r) => (typeof r === 'bigint' ? r : BigInt(r as string | number));
    case 'boolean':
      return (r) => r === true || r === 1 || r === 1n || r === '1' || r === 't';
    case 'date':
      return (r) => decodeInstant(family, r);
    case 'json':
      // PostgreSQL's driver parses jsonb itself; the others return the stored text.
      return family.parsesJson ? identity : (r) => JSON.parse(typeof r === 'string' ? r : String(r));
    case 'binary':
      return (r) => (Buffer.isBuffer(r) ? r : Buffer.from(r as Uint8Array));
  }
}

/** A canonical text of a key value, to match rows read back with the keys asked for. */
export function keyText(type: FieldType, value: unknown): string {
  if (value instanceof Date) return `d${value.getTime()}`;
  if (type === 'bigint') return `b${String(value)}`;
  if (type === 'uuid') return `u${String(value).toLowerCase()}`;
  if (typeof value === 'number') return `n${value}`;
  return `s${String(value)}`;
}
