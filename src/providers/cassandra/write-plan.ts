import type { ValuePlace } from '../../core/values';
import type { EntityMapping } from './compile';
import { STORE } from './semantics';

/**
 * What every write of one table binds, compiled once per mapping as plain data: a unit of work of
 * 50 inserts used to work this out for every row (the @CreatedAt position by a search of the
 * columns, a value place object per column, the key columns by a spread), which with the
 * per-row copies was most of lifespan's own CPU on the Cassandra insert bench (docs/performance.md).
 */
export interface WritePlan {
  /** Bound values of a row: one per column, key columns first (mapping.columns' order). */
  readonly columns: number;
  /** The primary key is the first `keyLength` bound values (partition, then clustering). */
  readonly keyLength: number;
  /** The partition key is the first `partitionLength` of them. */
  readonly partitionLength: number;
  /**
   * Where each model member's value is bound, in model order (entity.fields): the members are read
   * in that order, as valuesOf reads them, so a getter that throws is met in the same place.
   */
  readonly reads: readonly { readonly member: string; readonly column: number }[];
  /** The bound position stamped with the commit's instant when unset (@CreatedAt), if any. */
  readonly createdAt: number | undefined;
  /** The bound position stamped on every write (@UpdatedAt), if any. */
  readonly updatedAt: number | undefined;
  /** Where the @CreatedAt an overwrite keeps sits (a regular column; a key column cannot change). */
  readonly keptCreatedAt: number | undefined;
  /** Each key column's value is a uuid (one value whatever the case of its hex digits). */
  readonly uuidKeys: readonly boolean[];
  /** What a refused value of each column names (the checker's place). */
  readonly places: readonly ValuePlace[];
}

const PLANS = new WeakMap<EntityMapping, WritePlan>();

/** The mapping's write plan, compiled on first use. */
export function writePlanOf(mapping: EntityMapping): WritePlan {
  let plan = PLANS.get(mapping);
  if (!plan) {
    plan = compileWritePlan(mapping);
    PLANS.set(mapping, plan);
  }
  return plan;
}

export function compileWritePlan(mapping: EntityMapping): WritePlan {
  const { entity, columns } = mapping;
  const position = (member: string | null, regularOnly = false): number | undefined => {
    if (!member) return undefined;
    const index = columns.findIndex((c) => c.member === member && (!regularOnly || c.kind === 'regular'));
    return index >= 0 ? index : undefined;
  };
  const keyLength = mapping.partition.length + mapping.clustering.length;
  const reads = entity.fields
    .map((f) => ({ member: f.member, column: position(f.member) }))
    .filter((r): r is { member: string; column: number } => r.column !== undefined)
    .map((r) => Object.freeze(r));
  return Object.freeze({
    columns: columns.length,
    keyLength,
    partitionLength: mapping.partition.length,
    reads: Object.freeze(reads),
    createdAt: position(entity.createdAt),
    updatedAt: position(entity.updatedAt),
    keptCreatedAt: position(entity.createdAt, true),
    uuidKeys: Object.freeze(columns.slice(0, keyLength).map((c) => c.fieldType === 'uuid')),
    places: Object.freeze(
      columns.map((c) =>
        Object.freeze({ entity: entity.name, member: c.member, store: STORE, key: c.kind !== 'regular' }),
      ),
    ),
  });
}
