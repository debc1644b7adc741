import { WRITE_TTL_KINDS, type WriteTtlKind } from '../model/per-write-ttl';
import type { PerWriteRow } from './entry';

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
