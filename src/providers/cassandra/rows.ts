import { instanceOf, keyValues, stampTimestamps, valuesOf } from '../../runtime/entity-values';
import type { KeyInput } from '../contract';
import { fromCql, toCql } from './codec';
import type { EntityMapping } from './compile';
import type { Params, Row } from './executor';
import { STORE } from './semantics';
import type { TtlClause } from './write-ttl';

/** Bound values of every column, in the statement's column order, with timestamps stamped and every value checked. */
export function rowParams(mapping: EntityMapping, instance: object, now: Date): Params {
  const { entity } = mapping;
  const values = stampTimestamps(entity, valuesOf(entity, instance), now);
  return mapping.columns.map((c) => toCql(c, values[c.member], entity.name));
}

/** The primary key values at the head of rowParams (key columns come first). */
export function keyOfRow(mapping: EntityMapping, params: Params): Params {
  return params.slice(0, mapping.partition.length + mapping.clustering.length);
}

/** Bound values of the primary key (partition, then clustering), validated. */
export function keyParams<T>(mapping: EntityMapping, key: KeyInput<T>): Params {
  const values = keyValues(mapping.entity, key, STORE);
  return [...mapping.partition, ...mapping.clustering].map((c) => toCql(c, values[c.member], mapping.entity.name));
}

export function ttlParams(clause: TtlClause): Params {
  return clause.using ? [clause.seconds] : [];
}

export function rowToEntity<T>(mapping: EntityMapping, row: Row): T {
  const values: Record<string, unknown> = {};
  for (const c of mapping.columns) values[c.member] = fromCql(c, row[c.column], mapping.entity.name);
  return instanceOf<T>(mapping.entity, values);
}
