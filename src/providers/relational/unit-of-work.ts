import { isDeepStrictEqual } from 'node:util';
import type { EntityClass } from '../../model/types';
import { unitHoldsKey } from '../../runtime/key-errors';
import { UnitOfWorkShell } from '../../runtime/unit-of-work';
import type { WriteOptions } from '../contract';
import type { EntityTable } from './table/entity-table';
import type { BatchOp, Executor } from './drivers/executor';
import { RELATIONAL_STORE } from './options';
import { deleteOp, encodeKeyValues, encodeRow, insertOps, upsertOps } from './write/write-ops';

type Pending =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly table: EntityTable;
      readonly entity: object;
      readonly ttl: WriteOptions['ttl'];
    }
  | { readonly kind: 'delete'; readonly table: EntityTable; readonly key: unknown[] };

/** The number of the operation the transaction is at (1-based; 0 before the first). */
interface Running {
  index: number;
}

/** Collects writes and commits them in one database transaction, in the order given (the shell commits once). */
export class RelationalUnitOfWork extends UnitOfWorkShell<Pending, EntityTable> {
  constructor(
    tableOf: (target: EntityClass) => EntityTable,
    private readonly executor: Executor,
  ) {
    super(RELATIONAL_STORE, tableOf);
  }

  protected writeOp(kind: 'insert' | 'upsert', table: EntityTable, entity: object, ttl: WriteOptions['ttl']) {
    return { kind, table, entity, ttl };
  }

  protected deleteOp(table: EntityTable, key: Record<string, unknown>): Pending {
    // The key is encoded now: a value of the wrong type fails at this call, not at commit.
    return { kind: 'delete', table, key: encodeKeyValues(table, key) };
  }

  /** Nothing is written if any write fails: one database transaction, in the order given. */
  protected async commitOps(pending: readonly Pending[], fallback: WriteOptions['ttl']): Promise<void> {
    if (pending.length === 0) return;
    const running: Running = { index: 0 };
    try {
      await this.executor.batch(this.ops(pending, fallback, running));
    } catch (error) {
      const at = running.index - 1;
      const failing = pending[at];
      if (!failing) throw error;
      const outcome = {
        nothingWritten: true,
        written: `the transaction wrote nothing (rolled back): it stopped at operation ${running.index} of ${pending.length}`,
      };
      const holds = () => failing.kind === 'insert' && unitHoldsKey(pending, at, sameKey, (op) => op.kind === 'delete');
      throw failing.table.duplicateOf(error, outcome, holds);
    }
  }

  /**
   * Each write's statements, encoded as the transaction reaches them (memory stays flat in the
   * unit's size). The transaction runs each statement before it asks for the next, so `running`
   * names the operation a failure belongs to.
   */
  private *ops(pending: readonly Pending[], fallback: WriteOptions['ttl'], running: Running): Generator<BatchOp> {
    for (const item of pending) {
      running.index += 1;
      const t = item.table;
      if (item.kind === 'delete') {
        yield deleteOp(t, item.key);
        continue;
      }
      const ttl = item.ttl ?? fallback;
      const row = encodeRow(t, item.entity);
      // A plain loop: `yield*` over an array goes through the array iterator per op.
      const ops = item.kind === 'insert' ? insertOps(t, row, ttl) : upsertOps(t, row, ttl);
      for (let i = 0; i < ops.length; i++) yield ops[i] as BatchOp;
    }
  }
}

/** The same row of the same table (key values as encoded for the database). */
function sameKey(a: Pending, b: Pending): boolean {
  return a.table === b.table && isDeepStrictEqual(encodedKey(a), encodedKey(b));
}

function encodedKey(op: Pending): unknown[] {
  return op.kind === 'delete' ? op.key : encodeKeyValues(op.table, op.entity as Record<string, unknown>);
}
