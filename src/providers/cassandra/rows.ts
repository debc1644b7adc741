import { instanceOf, keyValues, stampTimestamps, valuesOf } from '../../runtime/entity-values';
import type { KeyInput } from '../contract';
import { fromCql, toCql } from './codec';
import type { EntityMapping } from './compile';
import type { Params, Row } from './executor';
import { STORE } from './semantics';
import type { TtlClause } from './write-ttl';

/** Bound values of every column, in the statement's column order, with timestamps stamped. */
export function rowParams(mapping: EntityMapping, instance: object, now: Date, isInsert: boolean): Params {
  const { entity } = mapping;
  const values = stampTimestamps(entity, valuesOf(entity, instance), now, isInsert);
  return mapping.columns.map((c) => toCql(c, values[c.member], entity.name));
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

/** Where the unit of work groups a write: table + partition key values. */
export function partitionIdentity(mapping: EntityMapping, instanceOrKey: Record<string, unknown>): string {
  const parts = mapping.partition.map((c) => identityOf(instanceOrKey[c.member]));
  return `${mapping.table.name}\u0000${parts.join('\u0000')}`;
}

export function rowIdentity(mapping: EntityMapping, instanceOrKey: Record<string, unknown>): string {
  const parts = [...mapping.partition, ...mapping.clustering].map((c) => identityOf(instanceOrKey[c.member]));
  return `${mapping.table.name}\u0000${parts.join('\u0000')}`;
}

function identityOf(value: unknown): string {
  if (value instanceof Date) return `d${value.getTime()}`;
  if (typeof value === 'bigint') return `b${value}`;
  return `${typeof value}:${String(value)}`;
}
