import type { PerWriteTtl } from '../../../model/per-write-ttl';
import { keyValues } from '../../../runtime/entity-values';
import type { KeyInput } from '../../contract';
import type { Encoder } from '../codec';
import type { EntityTable } from '../table/entity-table';
import type { BatchOp } from '../drivers/executor';
import { RELATIONAL_STORE } from '../options';
import { deleteByKey } from '../read/read-sql';
import { bind } from '../table/statement';
import { bindWrite, type BoundWrite } from './write-plan';
import { encodeStamped, expiryValues, instantOf } from './timestamps';

/** A row ready to bind: the member values its expiry counts from and the encoded column values. */
export interface EncodedRow {
  readonly values: Record<string, unknown>;
  /** Fresh per write and owned by it; the timestamps stamped (timestamps.ts). */
  readonly cols: unknown[];
}

/** A row encoded with its timestamps, for the writes that bind it by slots (conditional writes). */
export function encodeRow(t: EntityTable, instance: object): EncodedRow {
  const instant = instantOf(t);
  return { values: expiryValues(t, instance, instant), cols: encodeStamped(t, instance, instant, 0) };
}

/** A key argument as bound values; a missing key is KEY_INCOMPLETE before any value is encoded. */
export function encodeKey<T>(t: EntityTable, key: KeyInput<T>): unknown[] {
  const single = key !== null && key !== undefined && (typeof key !== 'object' || key instanceof Date);
  if (t.keyMembers.length === 1 && single) {
    // a single-member key given as its value: no key object to build
    return [(t.keyEncoders[0] as Encoder)(key)];
  }
  return encodeKeyValues(t, keyValues(t.entity, key, RELATIONAL_STORE));
}

/** Key member values (every member present) as bound values. */
export function encodeKeyValues(t: EntityTable, values: Record<string, unknown>): unknown[] {
  return t.keyMembers.map((m, i) => (t.keyEncoders[i] as Encoder)(values[m]));
}

/** An insert fails on a live row with the same key; an expired row with that key is replaced. */
export function insertOps(t: EntityTable, instance: object, requested: PerWriteTtl | undefined): BatchOp[] {
  return opsOf(bindWrite(t, 'insert', instance, requested));
}

export function upsertOps(t: EntityTable, instance: object, requested: PerWriteTtl | undefined): BatchOp[] {
  return opsOf(bindWrite(t, 'upsert', instance, requested));
}

function opsOf(write: BoundWrite): BatchOp[] {
  return write.before ? [write.before, write] : [write];
}

/** Deletes the row when it is live (an expired row is already absent; purge removes it). */
export function deleteOp(t: EntityTable, key: unknown[]): BatchOp {
  const statement = t.statement('delete', () => deleteByKey(t, t.nowMode));
  return { statement, params: bind(statement, { key, now: t.nowParam() }) };
}
