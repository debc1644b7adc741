import type { FieldType } from '../../model/types';

/**
 * FieldType → CQL type. Objects and arrays ('json') are stored as JSON text rather than CQL
 * collections: a collection's TTL is per element and TTL() cannot read a non-frozen collection,
 * which would break the one-TTL-per-row rule lifespan keeps (docs/stores/cassandra.md, "Mapping").
 * 'uuid' is uuid (timeuuid has no field type of its own).
 */
export const CQL_TYPE_OF: Readonly<Record<FieldType, string>> = {
  string: 'text',
  number: 'double',
  integer: 'int',
  bigint: 'bigint',
  boolean: 'boolean',
  date: 'timestamp',
  uuid: 'uuid',
  json: 'text',
  binary: 'blob',
  counter: 'counter',
};

/** Aliases system_schema may report for the same type. */
const ALIASES: Readonly<Record<string, string>> = { varchar: 'text' };

export function sameCqlType(a: string, b: string): boolean {
  const norm = (t: string) => ALIASES[t.toLowerCase()] ?? t.toLowerCase();
  return norm(a) === norm(b);
}
