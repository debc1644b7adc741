import { isDeepStrictEqual } from 'node:util';
import type { EntityClass } from '../../model/types';
import { unitHoldsKey } from '../../runtime/key-errors';
import { UnitOfWorkShell, writeTtl } from '../../runtime/unit-of-work';
import type { WriteOptions } from '../contract';
import type { EntityTable } from './table/entity-table';
import type { BatchOp, Executor } from './drivers/executor';
import { keepShape } from '../../shape-anchors';
import { internalError } from './drivers/internal-error';
import { RELATIONAL_STORE } from './options';
import { deleteOp, encodeKeyValues } from './write/write-ops';
import { bindWrite, type WriteSlot } from './write/write-plan';
import { WriteInstant } from './write/timestamps';

type Pending =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly table: EntityTable;
      readonly entity: object;
      readonly ttl: WriteOptions['ttl'];
    }
  | { readonly kind: 'delete'; readonly table: EntityTable; readonly key: unknown[] };

/** Collects writes and commits them in one database transaction, in the order given (the shell commits once). */
export class RelationalUnitOfWork extends UnitOfWorkShell<Pending, EntityTable> {
  constructor(
    tableOf: (target: EntityClass) => EntityTable,
    private readonly executor: Executor,
  ) {
    super(RELATIONAL_STORE, tableOf);
  }

  protected writeOp(kind: 'insert' | 'upsert', table: EntityTable, entity: object, ttl: WriteOptions['ttl']) {
    return queuedWrite(kind, table, entity, ttl);
  }

  protected deleteOp(table: EntityTable, key: Record<string, unknown>): Pending {
    // The key is encoded now: a value of the wrong type fails at this call, not at commit.
    return { kind: 'delete', table, key: encodeKeyValues(table, key) };
  }

  /** Nothing is written if any write fails: one database transaction, in the order given. */
  protected async commitOps(pending: readonly Pending[], commitTtl: WriteOptions['ttl']): Promise<void> {
    if (pending.length === 0) return;
    const ops = new PendingOps(pending, commitTtl);
    try {
      await this.executor.batch(ops);
    } catch (error) {
      const at = ops.index - 1;
      const failing = pending[at];
      if (!failing) throw error;
      const outcome = {
        nothingWritten: true,
        written: `the transaction wrote nothing (rolled back): it stopped at operation ${ops.index} of ${pending.length}`,
      };
      const holds = () => failing.kind === 'insert' && unitHoldsKey(pending, at, sameKey, (op) => op.kind === 'delete');
      throw failing.table.duplicateOf(error, outcome, holds);
    }
  }
}

/**
 * Each write's statements, bound as the transaction reaches them (memory stays flat in the unit's
 * size). The transaction runs each statement before it asks for the next, so `index` names the
 * operation a failure belongs to. An iterator of its own rather than a generator: no generator
 * resume per statement, and one result object for the whole unit (the transaction reads it at once).
 */
class PendingOps implements Iterable<BatchOp>, Iterator<BatchOp> {
  /** The number of the operation the transaction is at (1-based; 0 before the first). */
  index = 0;
  /** The write a clearing DELETE (MariaDB/MySQL) was sent before. */
  private after: BatchOp | null = null;
  private readonly result: { done: boolean; value: BatchOp } = { done: false, value: undefined as never };
  /** Every write of the unit is bound into this one object (the transaction runs it before the next). */
  private readonly slot: WriteSlot = { statement: undefined as never, params: [], check: noCheck, before: null };
  /** The instant the unit's timestamps take: the client clock read once, as the commit begins. */
  private readonly stamped = new WriteInstant();

  constructor(
    private readonly pending: readonly Pending[],
    private readonly commitTtl: WriteOptions['ttl'],
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<BatchOp> {
    const result = this.result;
    if (this.after) {
      result.value = this.after;
      this.after = null;
      return result;
    }
    const item = this.pending[this.index];
    if (!item) {
      result.done = true;
      return result;
    }
    this.index += 1;
    if (item.kind === 'delete') {
      result.value = deleteOp(item.table, item.key);
      return result;
    }
    const write = bindWrite(
      item.table,
      item.kind,
      item.entity,
      writeTtl(item.ttl, this.commitTtl),
      this.slot,
      this.stamped,
    );
    if (write.before) {
      this.after = write;
      result.value = write.before;
    } else {
      result.value = write;
    }
    return result;
  }
}

function noCheck(): void {}

/** The same row of the same table (key values as encoded for the database). */
function sameKey(a: Pending, b: Pending): boolean {
  return a.table === b.table && isDeepStrictEqual(encodedKey(a), encodedKey(b));
}

function encodedKey(op: Pending): unknown[] {
  return op.kind === 'delete' ? op.key : encodeKeyValues(op.table, op.entity as Record<string, unknown>);
}

// One of each of a unit's objects stays alive between units, so the code compiled for them does
// too (shape-anchors.ts): the unit, a queued write, and the iterator with its result and slot.
keepShape(new RelationalUnitOfWork(noTable, undefined as unknown as Executor));
keepShape(queuedWrite('insert', undefined as unknown as EntityTable, {}, undefined));
keepShape(new PendingOps([], undefined));

/** A queued insert/upsert: one place builds it, so the object kept for its shape has that shape. */
function queuedWrite(kind: 'insert' | 'upsert', table: EntityTable, entity: object, ttl: WriteOptions['ttl']): Pending {
  return { kind, table, entity, ttl };
}

function noTable(): never {
  throw internalError('the unit of work kept for its shape was asked for a table');
}
