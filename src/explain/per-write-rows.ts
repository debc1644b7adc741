import { WRITE_TTL_KINDS, type WriteTtlKind } from '../model/per-write-ttl';
import type { EntityModel } from '../model/types';
import { CONDITIONAL_WRITES, type ConditionalWrite, type ConditionalWriteRow, type PerWriteRow } from './entry';

/** What a store does with one per-write TTL kind (an explain entry's row, without its name). */
export type PerWriteHow = Omit<PerWriteRow, 'value'>;

/**
 * A store's answer for every per-write TTL kind: a Record over the kind union, so a new kind
 * without a row does not compile instead of vanishing from explain().
 */
export type PerWriteTable = { readonly [K in WriteTtlKind]: PerWriteHow };

/** The explain entry's rows, in the one order of WRITE_TTL_KINDS. */
export function perWriteRows(table: PerWriteTable): PerWriteRow[] {
  return WRITE_TTL_KINDS.map((value) => ({ value, ...table[value] }));
}

/** A store's answer for every conditional write: a Record over the operations, as PerWriteTable. */
export type ConditionalWriteTable = { readonly [K in ConditionalWrite]: Omit<ConditionalWriteRow, 'operation'> };

/**
 * The explain entry's conditional-write rows, in the one order of CONDITIONAL_WRITES. Without a
 * @Version member update() and delete({ ifVersion }) are refused (VERSION_NOT_DECLARED) on every
 * store: their rows say so instead of describing a condition on a member that does not exist.
 */
export function conditionalWriteRows(entity: EntityModel, table: ConditionalWriteTable): ConditionalWriteRow[] {
  return CONDITIONAL_WRITES.map((operation) =>
    entity.version === null && VERSIONED.includes(operation)
      ? { operation, how: `not available: declare @Version() on ${entity.name} (VERSION_NOT_DECLARED)`, expiry: 'none' }
      : { operation, ...table[operation] },
  );
}

/** Every conditional write refused up front, for one reason (e.g. a table of counters). */
export function refusedConditionalWrites(why: string): ConditionalWriteRow[] {
  return CONDITIONAL_WRITES.map((operation) => ({ operation, how: `not available: ${why}`, expiry: 'none' }));
}

const VERSIONED: readonly ConditionalWrite[] = ['update', 'delete-if-version'];
