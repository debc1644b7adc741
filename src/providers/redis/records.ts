import type { FieldModel } from '../../model/types';
import { unknownMember } from '../../runtime/arguments';
import { clientNow, stampTimestamps, valuesOf } from '../../runtime/entity-values';
import { encodeRecord, storedForm, type StoredRecord } from './codec';
import type { KeyspaceMapping } from './compile';
import { keyFromValues } from './keys';
import { STORE } from './semantics';

/** One entity write, encoded and checked before anything is sent. */
export interface EncodedRecord {
  readonly key: string;
  readonly value: string;
}

/**
 * The key and JSON of an entity argument (an instance or a plain object of its members).
 * @CreatedAt / @UpdatedAt are stamped with this process's clock (a Redis TIME would cost a round
 * trip per write); the expiry itself is counted by the server from the write.
 */
export function encodeEntity(
  prefix: string,
  mapping: KeyspaceMapping,
  entity: object,
  clock: () => Date = clientNow,
): EncodedRecord {
  const values = stampTimestamps(mapping.entity, valuesOf(mapping.entity, entity), clock);
  const value = encodeRecord(mapping, values);
  return { key: keyFromValues(prefix, mapping, values), value };
}

/** An equality filter as stored-form text per field (find/count compare decoded JSON members). */
export function whereForms(
  mapping: KeyspaceMapping,
  where: Record<string, unknown>,
): {
  readonly values: Record<string, unknown>;
  readonly forms: ReadonlyArray<readonly [FieldModel, string]>;
} {
  const values: Record<string, unknown> = {};
  const forms: Array<readonly [FieldModel, string]> = [];
  for (const [member, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const field = mapping.fields.find((f) => f.member === member);
    if (!field) {
      throw unknownMember(
        member,
        mapping.fields.map((f) => f.member),
        { entity: mapping.entity.name, store: STORE },
      );
    }
    values[member] = value;
    forms.push([field, storedForm(mapping, field, value)]);
  }
  return { values, forms };
}

/** True when a stored record holds every filtered member value. */
export function matches(stored: StoredRecord, forms: ReadonlyArray<readonly [FieldModel, string]>): boolean {
  return forms.every(([field, form]) => JSON.stringify(stored[field.storedName] ?? null) === form);
}
