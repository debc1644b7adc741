import { constants } from 'node:buffer';
import { checkValue, valueInvalid, type ValuePlace } from '../../core/values';
import { StoreError } from '../../errors';
import { showValue } from '../../model/show-value';
import type { FieldModel, FieldType } from '../../model/types';
import type { KeyspaceMapping } from './compile';
import { MAX_VALUE_BYTES, STORE } from './semantics';

/**
 * Entity values ⇄ one JSON string per key. One string (not a hash) because SET writes the value
 * and its expiry (EX, KEEPTTL, NX) in one command: every write is one atomic step without a
 * transaction. Types JSON lacks are written as text: bigint as decimal, date as ISO 8601 (ms),
 * binary as base64.
 */
/** The types JSON holds as they are. */
const AS_IS = Object.fromEntries(
  (['string', 'uuid', 'number', 'integer', 'counter', 'boolean', 'json'] as const).map((t) => [t, (v: unknown) => v]),
) as Record<'string' | 'uuid' | 'number' | 'integer' | 'counter' | 'boolean' | 'json', (v: unknown) => unknown>;

const TO_JSON: Readonly<Record<FieldType, (v: unknown) => unknown>> = {
  ...AS_IS,
  bigint: (v) => (v as bigint).toString(),
  date: (v) => (v as Date).toISOString(),
  binary: (v) => Buffer.from(v as Uint8Array).toString('base64'),
};

const FROM_JSON: Readonly<Record<FieldType, (v: unknown) => unknown>> = {
  ...AS_IS,
  bigint: (v) => BigInt(v as string),
  date: (v) => new Date(v as string),
  binary: (v) => Buffer.from(v as string, 'base64'),
};

/**
 * The longest record text lifespan writes: Redis's 512 MiB string limit, or V8's longest string
 * (about 512 M UTF-16 units, a little under 512 MiB) when that is shorter: past it encoding
 * itself throws (base64, JSON.stringify), so the size is checked before encoding.
 */
export const MAX_RECORD_LENGTH = Math.min(MAX_VALUE_BYTES, constants.MAX_STRING_LENGTH);

/** A member's encoded size known before encoding it (base64 of binary, UTF-8 of text); 0 when unknown. */
export function encodedSizeEstimate(value: unknown): number {
  if (value instanceof Uint8Array) return Math.ceil(value.byteLength / 3) * 4;
  // UTF-8 bytes: never fewer than the UTF-16 units the JSON string holds.
  if (typeof value === 'string') return Buffer.byteLength(value);
  return 0;
}

/** The stored JSON text of member values, each checked by the shared value checker. */
export function encodeRecord(
  mapping: KeyspaceMapping,
  values: Record<string, unknown>,
  maxBytes: number = MAX_RECORD_LENGTH,
): string {
  const fields = mapping.fields;
  const places = placesOf(mapping);
  const checked = new Array<unknown>(fields.length);
  // An upper bound of the encoded size, free to compute: the estimates (a byte count per string)
  // are only taken when it passes the limit. Every write runs this.
  let bound = 0;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as FieldModel;
    const value = checkValue(field.type, field.nullable, values[field.member], places[i] as ValuePlace);
    checked[i] = value;
    bound += encodedSizeBound(value);
  }
  const estimates = bound > maxBytes ? checked.map(encodedSizeEstimate) : [];
  if (estimates.reduce((a, b) => a + b, 0) > maxBytes) throw tooLarge(mapping, estimates, maxBytes);
  const stored: Record<string, unknown> = {};
  let text: string;
  try {
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as FieldModel;
      const value = checked[i];
      stored[field.storedName] = value === null ? null : TO_JSON[field.type](value);
    }
    text = JSON.stringify(stored);
  } catch (error) {
    // A member past V8's string length: a RangeError from JSON.stringify, Node's "Cannot create a
    // string longer than …" (code ERR_STRING_TOO_LONG) from Buffer#toString.
    if (error instanceof RangeError || /string longer than/i.test((error as Error).message)) {
      throw tooLarge(mapping, storedSizes(mapping, stored, checked.map(encodedSizeEstimate)), maxBytes);
    }
    throw error;
  }
  // Byte length only matters near the limit; a UTF-16 length under a third of it cannot exceed it.
  if (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes) {
    throw tooLarge(mapping, storedSizes(mapping, stored, checked.map(encodedSizeEstimate)), maxBytes);
  }
  return text;
}

/** At least encodedSizeEstimate(value): UTF-8 takes at most 3 bytes per UTF-16 unit. */
function encodedSizeBound(value: unknown): number {
  if (typeof value === 'string') return value.length * 3;
  if (value instanceof Uint8Array) return Math.ceil(value.byteLength / 3) * 4;
  return 0;
}

/** Each member's encoded size: its JSON when that can be written, else the estimate (or too long). */
function storedSizes(
  mapping: KeyspaceMapping,
  stored: Record<string, unknown>,
  estimates: readonly number[],
): number[] {
  return mapping.fields.map((field, i) => {
    if (!(field.storedName in stored)) return estimates[i] ?? 0;
    try {
      return Buffer.byteLength(JSON.stringify(stored[field.storedName]) ?? '');
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  });
}

/** A stored record as read from a key: the JSON object lifespan wrote, with every key member. */
export type StoredRecord = Readonly<Record<string, unknown>>;

interface FieldReader {
  readonly field: FieldModel;
  readonly asIs: boolean;
  /** The field's names, taken out once: a page reads them for each of its records. */
  readonly storedName: string;
  readonly member: string;
}

/**
 * How one mapping's records are read, worked out once per mapping (a page decodes thousands of
 * records with it): the key members every record must hold, and per stored field its reader. A
 * field of a type JSON holds as it is is copied; the others are checked and converted (fromJson).
 */
interface Reader {
  readonly keyMembers: readonly FieldModel[];
  /** In the mapping's order (the @CreatedAt member first). */
  readonly fields: readonly FieldReader[];
  /** The same readers in the entity's field order (the order instanceOf sets members in). */
  readonly inEntityOrder: readonly FieldReader[];
  readonly prototype: object;
}

const readers = new WeakMap<KeyspaceMapping, Reader>();

function readerOf(mapping: KeyspaceMapping): Reader {
  let reader = readers.get(mapping);
  if (reader === undefined) {
    const fields = mapping.fields.map((field) => ({
      field,
      asIs: Object.hasOwn(AS_IS, field.type),
      storedName: field.storedName,
      member: field.member,
    }));
    reader = {
      keyMembers: [...mapping.tagMembers, ...mapping.restMembers],
      fields,
      inEntityOrder: mapping.entity.fields.map((f) => fields.find((r) => r.field === f) as FieldReader),
      prototype: mapping.entity.target.prototype as object,
    };
    readers.set(mapping, reader);
  }
  return reader;
}

/**
 * The JSON object stored at a key. Another program may have written anything under the entity's
 * prefix: what is not an object holding the key members is refused, never read as an entity.
 */
export function parseStored(mapping: KeyspaceMapping, key: string, text: string): StoredRecord {
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    throw unreadable(mapping, key, 'is not JSON');
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
    throw unreadable(mapping, key, `is ${showValue(stored)}, not a JSON object`);
  }
  const record = stored as StoredRecord;
  for (const field of readerOf(mapping).keyMembers) {
    if (record[field.storedName] === undefined || record[field.storedName] === null) {
      throw unreadable(mapping, key, `lacks the key member '${field.member}'`, field.member);
    }
  }
  return record;
}

/** Member values of a stored record (members it lacks are left out). */
export function decodeRecord(mapping: KeyspaceMapping, key: string, stored: StoredRecord): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const reader of readerOf(mapping).fields) {
    const value = readField(mapping, key, reader, stored);
    if (value !== undefined) values[reader.member] = value;
  }
  return values;
}

/**
 * The entity a stored record holds, as instanceOf(entity, decodeRecord(…)) makes it but in one
 * pass with no values object between (a page decodes thousands of records). Members are set in
 * the entity's field order, as instanceOf sets them; the first stored field is read first, as
 * decodeRecord reads it, so a record with several unreadable members is named by the same one.
 */
export function decodeEntity<T>(mapping: KeyspaceMapping, key: string, stored: StoredRecord): T {
  const reader = readerOf(mapping);
  const instance = Object.create(reader.prototype) as Record<string, unknown>;
  const first = reader.fields[0];
  const firstValue = first === undefined ? undefined : readField(mapping, key, first, stored);
  const order = reader.inEntityOrder;
  for (let i = 0; i < order.length; i++) {
    const entry = order[i] as FieldReader;
    const value = entry === first ? firstValue : readField(mapping, key, entry, stored);
    if (value !== undefined) instance[entry.member] = value;
  }
  return instance as T;
}

/** One member's value of a stored record; undefined when the record lacks it. */
function readField(mapping: KeyspaceMapping, key: string, reader: FieldReader, stored: StoredRecord): unknown {
  // JSON.parse gives no own member the value undefined: undefined is a member the record lacks.
  const value = stored[reader.storedName];
  if (value === undefined || value === null || reader.asIs) return value;
  return fromJson(mapping, key, reader.field, value);
}

function fromJson(mapping: KeyspaceMapping, key: string, field: FieldModel, value: unknown): unknown {
  // No closure for the error: this runs for each converted member of every record of a page.
  if (READ_AS_TEXT.has(field.type) && typeof value !== 'string') throw wrongType(mapping, key, field, value);
  let decoded: unknown;
  try {
    decoded = FROM_JSON[field.type](value);
  } catch {
    throw wrongType(mapping, key, field, value);
  }
  if (decoded instanceof Date && Number.isNaN(decoded.getTime())) throw wrongType(mapping, key, field, value);
  return decoded;
}

function wrongType(mapping: KeyspaceMapping, key: string, field: FieldModel, value: unknown): StoreError {
  return unreadable(mapping, key, `holds ${showValue(value)} as ${field.type}`, field.member);
}

/** The types lifespan writes as JSON text (a number there was not written by lifespan). */
const READ_AS_TEXT: ReadonlySet<FieldType> = new Set(['bigint', 'date', 'binary']);

function unreadable(mapping: KeyspaceMapping, key: string, what: string, member?: string): StoreError {
  return new StoreError('REDIS_VALUE_UNREADABLE', `the value at ${showValue(key)} ${what}`, {
    entity: mapping.entity.name,
    member,
    store: STORE,
    hint: `keep keys under '${mapping.collection}:' of the prefix for lifespan's records of ${mapping.entity.name}, or delete this key`,
  });
}

/** The stored JSON form of one member value, for comparing a find() filter with stored records. */
export function storedForm(mapping: KeyspaceMapping, field: FieldModel, value: unknown): string {
  const checked = checkValue(field.type, true, value, placeOf(mapping, field));
  return JSON.stringify(checked === null ? null : TO_JSON[field.type](checked));
}

function placeOf(mapping: KeyspaceMapping, field: FieldModel): ValuePlace {
  return placesOf(mapping)[mapping.fields.indexOf(field)] as ValuePlace;
}

/** Each field's place (for a refused value's message), in the mapping's order: made once per mapping. */
function placesOf(mapping: KeyspaceMapping): readonly ValuePlace[] {
  let places = placesByMapping.get(mapping);
  if (places === undefined) {
    const keys = [...mapping.tagMembers, ...mapping.restMembers];
    places = mapping.fields.map((field) => ({
      entity: mapping.entity.name,
      member: field.member,
      store: STORE,
      key: keys.includes(field),
    }));
    placesByMapping.set(mapping, places);
  }
  return places;
}
const placesByMapping = new WeakMap<KeyspaceMapping, readonly ValuePlace[]>();

/** A record over the longest string lifespan can write to Redis, named by its largest member. */
function tooLarge(mapping: KeyspaceMapping, sizes: readonly number[], maxBytes: number) {
  const largestAt = sizes.reduce((best, size, i) => (size > (sizes[best] ?? 0) ? i : best), 0);
  const largest = mapping.fields[largestAt] as FieldModel;
  const size = sizes[largestAt] ?? 0;
  return valueInvalid(
    placeOf(mapping, largest),
    Number.isFinite(size) ? `<${size} bytes>` : '<too long to encode>',
    `makes the record longer than ${maxBytes} bytes, the longest string lifespan can write to Redis (512 MiB, or less where Node.js strings end)`,
    `store large payloads elsewhere and keep a reference in ${largest.member}`,
  );
}
