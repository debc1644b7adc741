import type { StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import { duplicateKey, type DuplicateHit } from '../../runtime/key-errors';
import type { EntityMapping } from './compile';
import type { Params } from './executor';
import { STORE } from './semantics';
import { writePlanOf } from './write-plan';

export type Write = {
  readonly kind: 'insert' | 'upsert';
  readonly mapping: EntityMapping;
  readonly instance: object;
  readonly ttl: PerWriteTtl | undefined;
};

export type Operation =
  Write | { readonly kind: 'delete'; readonly mapping: EntityMapping; readonly key: Record<string, unknown> };

/** An operation as planned: with its row's identity (keyIdentity of its checked primary-key values). */
export interface Planned {
  readonly op: Operation;
  readonly id: string;
}

/**
 * What the operations of one unit of work on one row amount to, as one statement. They cannot be
 * sent as they are: a batch gives all its statements one timestamp, and at one timestamp a delete
 * beats a write of the same row whatever their order.
 */
export interface RowPlan<T extends Planned = Planned> {
  /** The first operation on the row (an insert when the row must be absent). */
  readonly first: T;
  /** The operation whose values (or deletion) the row is left with; its mapping is the row's. */
  readonly last: T;
  /**
   * The write that created the row as it is left: the first write after the last delete. Its
   * @CreatedAt is the one written (a later upsert of a row this unit of work created keeps it).
   */
  readonly creator: T | undefined;
  /** The first operation is an insert: the row must not exist before the commit (else nothing is written). */
  readonly mustBeAbsent: boolean;
  /** The row may exist already and is overwritten by upserts only: its stored @CreatedAt is kept. */
  readonly keepsStoredCreatedAt: boolean;
}

interface RowState<T extends Planned> {
  first: T;
  last: T;
  creator: T | undefined;
  mustBeAbsent: boolean;
  keepsStoredCreatedAt: boolean;
  /** Whether the row exists after the operations so far (the first one decides: a write makes it exist). */
  exists: boolean;
}

/**
 * Reduces the operations to one per row, in order of first appearance. An insert of a row this
 * unit of work already wrote (and did not delete since) fails as a duplicate, as it would if the
 * operations ran one by one. The plans are the row states themselves (no copy per row).
 */
export function planRows<T extends Planned>(items: readonly T[]): RowPlan<T>[] {
  const byId = new Map<string, RowState<T>>();
  const rows: RowState<T>[] = [];
  for (const item of items) {
    const { op } = item;
    const row = byId.get(item.id);
    if (!row) {
      const isWrite = op.kind !== 'delete';
      const state: RowState<T> = {
        first: item,
        last: item,
        creator: isWrite ? item : undefined,
        mustBeAbsent: op.kind === 'insert',
        keepsStoredCreatedAt: false,
        exists: isWrite,
      };
      byId.set(item.id, state);
      rows.push(state);
      continue;
    }
    if (op.kind === 'delete') {
      row.creator = undefined;
      row.exists = false;
    } else {
      if (op.kind === 'insert' && row.exists) {
        throw unitDuplicate(op.mapping, 'inserted-twice', 'nothing was written (found before sending)');
      }
      if (!row.exists) row.creator = item;
      row.exists = true;
    }
    row.last = item;
  }
  for (const row of rows) {
    const { creator } = row;
    row.keepsStoredCreatedAt = creator !== undefined && creator === row.first && creator.op.kind === 'upsert';
  }
  return rows;
}

/**
 * Table + checked key values (the whole primary key, or a prefix such as the partition key) → text
 * equal exactly when Cassandra sees the same key.
 */
export function keyIdentity(mapping: EntityMapping, key: Params): string {
  const { uuidKeys } = writePlanOf(mapping);
  let id = mapping.table.name;
  for (let i = 0; i < key.length; i++) id += `\u0000${identityPart(key[i], uuidKeys[i] === true)}`;
  return id;
}

function identityPart(value: unknown, uuid: boolean): string {
  if (value instanceof Date) return `d${value.getTime()}`;
  if (Buffer.isBuffer(value)) return `x${value.toString('hex')}`;
  // A uuid is one value whatever the case of its hex digits.
  if (uuid) return `u${String(value).toLowerCase()}`;
  return `${typeof value}:${String(value)}`;
}

/** STORE_DUPLICATE_KEY of a unit of work, which Cassandra lets write nothing (one conditional batch, or a check first). */
export function unitDuplicate(mapping: EntityMapping, hit: DuplicateHit, written: string): StoreError {
  const { entity, table } = mapping;
  const unitOfWork = { nothingWritten: true, written };
  return duplicateKey({ store: STORE, entity, collection: table.name, hit, unitOfWork });
}
