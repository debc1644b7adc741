import type { ValuePlace } from '../../core/values';
import { createdAtUnset, keyValues, readMember } from '../../runtime/entity-values';
import { instanceReader } from '../../runtime/unrolled-fill';
import type { KeyInput } from '../contract';
import { fromCql, toCqlAt } from './codec';
import type { ColumnMapping, EntityMapping } from './compile';
import type { Params, Row } from './executor';
import { STORE } from './semantics';
import type { TtlClause } from './write-ttl';
import { writePlanOf } from './write-plan';

/**
 * Bound values of every column, in the statement's column order, with timestamps stamped (as
 * stampTimestamps does) and every value checked; `room` more slots are left at the end for the
 * statement's own parameters (the TTL), so the row is not copied to append them. Values are
 * read straight into the array by the mapping's write plan: no member-value object per row.
 */
export function rowParams(mapping: EntityMapping, instance: object, now: Date, room = 0): Params {
  const plan = writePlanOf(mapping);
  const name = mapping.entity.name;
  const params = new Array<unknown>(plan.columns + room);
  for (const { member, column } of plan.reads) params[column] = readMember(instance, member, name);
  if (plan.createdAt !== undefined && createdAtUnset(params[plan.createdAt])) params[plan.createdAt] = now;
  if (plan.updatedAt !== undefined) params[plan.updatedAt] = now;
  const { columns } = mapping;
  for (let i = 0; i < plan.columns; i++)
    params[i] = toCqlAt(columns[i] as ColumnMapping, params[i], plan.places[i] as ValuePlace);
  return params;
}

/** rowParams, then the seconds of USING TTL ? when the write carries one (the INSERT's last parameter). */
export function writeParams(mapping: EntityMapping, instance: object, now: Date, clause: TtlClause): Params {
  if (!clause.using) return rowParams(mapping, instance, now);
  const params = rowParams(mapping, instance, now, 1);
  params[params.length - 1] = clause.seconds;
  return params;
}

/** The primary key values at the head of rowParams (key columns come first). */
export function keyOfRow(mapping: EntityMapping, params: Params): Params {
  return params.slice(0, writePlanOf(mapping).keyLength);
}

/** Bound values of the primary key (partition, then clustering), validated. */
export function keyParams<T>(mapping: EntityMapping, key: KeyInput<T>): Params {
  const values = keyValues(mapping.entity, key, STORE);
  const { places, keyLength } = writePlanOf(mapping);
  const params = new Array<unknown>(keyLength);
  for (let i = 0; i < keyLength; i++) {
    const column = mapping.columns[i] as ColumnMapping;
    params[i] = toCqlAt(column, values[column.member], places[i] as ValuePlace);
  }
  return params;
}

export function ttlParams(clause: TtlClause): Params {
  return clause.using ? [clause.seconds] : [];
}

const READERS = new WeakMap<EntityMapping, (row: Row) => object>();

/** A row read back as an instance of the entity class: members in model order, as instanceOf sets them. */
export function rowToEntity<T>(mapping: EntityMapping, row: Row): T {
  let read = READERS.get(mapping);
  if (!read) {
    read = rowReader(mapping);
    READERS.set(mapping, read);
  }
  return read(row) as T;
}

/** Decodes straight onto the instance (no object of values in between), by code made once per mapping. */
function rowReader(mapping: EntityMapping): (row: Row) => object {
  const { entity } = mapping;
  const columns = entity.fields
    .map((f) => mapping.columns.find((c) => c.member === f.member))
    .filter((c): c is ColumnMapping => c !== undefined);
  const read = instanceReader(
    entity.target,
    columns.map((c) => c.member),
    columns.map((c) => c.column),
    columns.map((c) => (raw: unknown) => fromCql(c, raw, entity.name)),
  );
  return (row) => read(row as unknown as Record<string, unknown>);
}
