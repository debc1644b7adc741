import type { StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import { duplicateKey, type DuplicateHit } from '../../runtime/key-errors';
import type { EntityMapping } from './compile';
import type { Params } from './executor';
import { STORE } from './semantics';

export type Write = {
  readonly kind: 'insert' | 'upsert';
  readonly mapping: EntityMapping;
  readonly instance: object;
  readonly ttl: PerWriteTtl | undefined;
};

export type Operation =
  Write | { readonly kind: 'delete'; readonly mapping: EntityMapping; readonly key: Record<string, unknown> };

/**
 * What the operations of one unit of work on one row amount to, as one statement. They cannot be
 * sent as they are: a batch gives all its statements one timestamp, and at one timestamp a delete
 * beats a write of the same row whatever their order.
 */
export interface RowPlan {
  readonly mapping: EntityMapping;
  /** The first operation on the row (an insert when the row must be absent). */
  readonly first: Operation;
  /** The operation whose values (or deletion) the row is left with. */
  readonly last: Operation;
  /**
   * The write that created the row as it is left: the first write after the last delete. Its
   * @CreatedAt is the one written (a later upsert of a row this unit of work created keeps it).
   */
  readonly creator: Write | undefined;
  /** The first operation is an insert: the row must not exist before the commit (else nothing is written). */
  readonly mustBeAbsent: boolean;
  /** The row may exist already and is overwritten by upserts only: its stored @CreatedAt is kept. */
  readonly keepsStoredCreatedAt: boolean;
}

interface RowState {
  first: Operation;
  last: Operation;
  creator: Write | undefined;
  /** Whether the row exists after the operations so far (the first one decides: a write makes it exist). */
  exists: boolean;
}

/**
 * Reduces the operations to one per row, in order of first appearance. `keyOf` gives an operation's
 * checked primary-key values. An insert of a row this unit of work already wrote (and did not delete
 * since) fails as a duplicate, as it would if the operations ran one by one.
 */
export function planRows(operations: readonly Operation[], keyOf: (op: Operation) => Params): RowPlan[] {
  const rows = new Map<string, RowState>();
  for (const op of operations) {
    const id = keyIdentity(op.mapping, keyOf(op));
    const row = rows.get(id);
    if (!row) {
      rows.set(id, {
        first: op,
        last: op,
        creator: op.kind === 'delete' ? undefined : op,
        exists: op.kind !== 'delete',
      });
      continue;
    }
    if (op.kind === 'delete') {
      row.creator = undefined;
      row.exists = false;
    } else {
      if (op.kind === 'insert' && row.exists) {
        throw unitDuplicate(op.mapping, 'inserted-twice', 'nothing was written (found before sending)');
      }
      if (!row.exists) row.creator = op;
      row.exists = true;
    }
    row.last = op;
  }
  return [...rows.values()].map((row) => ({
    mapping: row.last.mapping,
    first: row.first,
    last: row.last,
    creator: row.creator,
    mustBeAbsent: row.first.kind === 'insert',
    keepsStoredCreatedAt: row.creator !== undefined && row.creator === row.first && row.creator.kind === 'upsert',
  }));
}

/**
 * Table + checked key values (the whole primary key, or a prefix such as the partition key) → text
 * equal exactly when Cassandra sees the same key.
 */
export function keyIdentity(mapping: EntityMapping, key: Params): string {
  const columns = [...mapping.partition, ...mapping.clustering];
  const parts = key.map((value, i) => {
    if (value instanceof Date) return `d${value.getTime()}`;
    if (Buffer.isBuffer(value)) return `x${value.toString('hex')}`;
    // A uuid is one value whatever the case of its hex digits.
    if (columns[i]?.fieldType === 'uuid') return `u${String(value).toLowerCase()}`;
    return `${typeof value}:${String(value)}`;
  });
  return [mapping.table.name, ...parts].join('\u0000');
}

/** STORE_DUPLICATE_KEY of a unit of work, which Cassandra lets write nothing (one conditional batch, or a check first). */
export function unitDuplicate(mapping: EntityMapping, hit: DuplicateHit, written: string): StoreError {
  const { entity, table } = mapping;
  const unitOfWork = { nothingWritten: true, written };
  return duplicateKey({ store: STORE, entity, collection: table.name, hit, unitOfWork });
}
