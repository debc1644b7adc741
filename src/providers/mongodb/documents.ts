import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import { fieldOf, type FieldModel, type FieldType } from '../../model/types';
import { keyValues } from '../../runtime/entity-values';
import type { KeyInput } from '../contract';
import type { Doc } from './commands';
import type { CollectionMapping } from './compile';
import { STORE } from './semantics';

/**
 * Entity values ⇄ BSON documents. The key is `_id`: the value itself for a one-member key, a
 * sub-document of the key members (in key order, which `_id` equality depends on) otherwise.
 */
export function idOf(mapping: CollectionMapping, key: KeyInput<unknown>): unknown {
  const values = keyValues(mapping.entity, key as KeyInput<Record<string, unknown>>, STORE);
  return idFromValues(mapping, values);
}

export function idFromValues(mapping: CollectionMapping, values: Record<string, unknown>): unknown {
  const stored = (member: string) => toStored(mapping, member, values[member]);
  const [only] = mapping.key;
  if (mapping.key.length === 1 && only) return stored(only.member);
  const id: Doc = {};
  for (const part of mapping.key) id[part.field] = stored(part.member);
  return id;
}

/** A member value as it goes into BSON: undefined becomes null; invalid dates are refused. */
export function toStored(mapping: CollectionMapping, member: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date && Number.isNaN(value.getTime())) {
    throw new LifespanError('VALUE_INVALID_DATE', `${member} is an invalid Date`, {
      entity: mapping.entity.name,
      member,
      store: STORE,
      hint: 'give it a valid Date',
    });
  }
  return value;
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
    default:
      return value;
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
export function whereFilter(mapping: CollectionMapping, where: object | undefined): Doc {
  const filter: Doc = {};
  if (where === undefined || where === null) return filter;
  const single = mapping.key.length === 1;
  for (const [member, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const keyPart = mapping.key.find((k) => k.member === member);
    const field: FieldModel | undefined = mapping.fields.find((f) => f.member === member);
    if (keyPart) {
      filter[single ? '_id' : `_id.${keyPart.field}`] = toStored(mapping, member, value);
    } else if (field) {
      filter[field.storedName] = toStored(mapping, member, value);
    } else {
      throw new LifespanError(
        'FIND_UNKNOWN_MEMBER',
        `cannot filter on ${showValue(member)}: it is not a stored member`,
        {
          entity: mapping.entity.name,
          store: STORE,
          hint: `filter on: ${[...mapping.key.map((k) => k.member), ...mapping.fields.map((f) => f.member)].join(', ')}`,
        },
      );
    }
  }
  return filter;
}

/** A stable text form of an _id, to match found documents back to the keys asked for. */
export function idText(id: unknown): string {
  return JSON.stringify(id, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}
