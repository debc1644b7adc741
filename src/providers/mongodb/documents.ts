import { fieldOf, type FieldModel, type FieldType } from '../../model/types';
import { unknownMember } from '../../runtime/arguments';
import { keyValues } from '../../runtime/entity-values';
import type { KeyInput } from '../contract';
import type { Doc } from './commands';
import type { CollectionMapping } from './compile';
import { STORE } from './semantics';
import { toStored } from './codec';

/**
 * Entity values ⇄ BSON documents. The key is `_id`: the value itself for a one-member key, a
 * sub-document of the key members (in key order, which `_id` equality depends on) otherwise.
 */
export function idOf(mapping: CollectionMapping, key: KeyInput<unknown>): unknown {
  const values = keyValues(mapping.entity, key as KeyInput<Record<string, unknown>>, STORE);
  return idFromValues(mapping, values);
}

/** The `_id` of member values, every key member checked against its declared type. */
export function idFromValues(mapping: CollectionMapping, values: Record<string, unknown>): unknown {
  const stored = (member: string) => toStored(mapping, member, values[member]);
  const [only] = mapping.key;
  if (mapping.key.length === 1 && only) return stored(only.member);
  const id: Doc = {};
  for (const part of mapping.key) id[part.field] = stored(part.member);
  return id;
}

/** Member values of a stored document (members the document lacks are left out). */
export function fromDocument(mapping: CollectionMapping, doc: Doc): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const id = doc['_id'];
  const [only] = mapping.key;
  if (mapping.key.length === 1 && only) {
    values[only.member] = fromStored(typeOf(mapping, only.member), id);
  } else if (typeof id === 'object' && id !== null) {
    for (const part of mapping.key)
      values[part.member] = fromStored(typeOf(mapping, part.member), (id as Doc)[part.field]);
  }
  for (const field of mapping.fields) {
    if (field.storedName in doc) values[field.member] = fromStored(field.type, doc[field.storedName]);
  }
  return values;
}

function typeOf(mapping: CollectionMapping, member: string): FieldType {
  return fieldOf(mapping.entity, member)?.type ?? 'json';
}

/** BSON values back to what the member type promises (reads use useBigInt64, so int64 is bigint). */
export function fromStored(type: FieldType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (type) {
    case 'bigint':
      return typeof value === 'number' || typeof value === 'bigint' ? BigInt(value) : value;
    case 'number':
    case 'integer':
    case 'counter':
      return typeof value === 'bigint' ? Number(value) : value;
    case 'binary':
      return isBsonBinary(value) ? Buffer.from(value.buffer) : value;
    case 'string':
    case 'boolean':
    case 'date':
    case 'uuid':
    case 'json':
      // BSON returns these in the member's form.
      return value;
    default: {
      const unhandled: never = type;
      return unhandled;
    }
  }
}

function isBsonBinary(value: unknown): value is { buffer: Uint8Array } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { _bsontype?: unknown })._bsontype === 'Binary' &&
    (value as { buffer?: unknown }).buffer instanceof Uint8Array
  );
}

/** An equality filter on members (find/count): key members address `_id`, others their stored name. */
export function whereFilter(mapping: CollectionMapping, where: Record<string, unknown>): Doc {
  const filter: Doc = {};
  const single = mapping.key.length === 1;
  for (const [member, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const keyPart = mapping.key.find((k) => k.member === member);
    const field: FieldModel | undefined = mapping.fields.find((f) => f.member === member);
    if (keyPart) {
      filter[single ? '_id' : `_id.${keyPart.field}`] = equalTo(toStored(mapping, member, value));
    } else if (field) {
      filter[field.storedName] = equalTo(toStored(mapping, member, value));
    } else {
      throw unknownMember(member, [...mapping.key.map((k) => k.member), ...mapping.fields.map((f) => f.member)], {
        entity: mapping.entity.name,
        store: STORE,
      });
    }
  }
  return filter;
}

/** A plain object in a filter is read as operators ({ $ne: null } would match everything): $eq keeps it a value. */
function equalTo(value: unknown): unknown {
  const plain =
    typeof value === 'object' && value !== null && !(value instanceof Date) && !(value instanceof Uint8Array);
  return plain ? { $eq: value } : value;
}

/** A stable text form of an _id, to match found documents back to the keys asked for. */
export function idText(id: unknown): string {
  return JSON.stringify(id, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}
