import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import type { EntityClass } from '../../model/types';
import { entityClassOf } from '../../runtime/arguments';
import type { KeyInput, UnitOfWork, WriteOptions } from '../contract';
import type { EntityTable } from './entity-table';
import type { BatchOp, Executor } from './executor';
import { RELATIONAL_STORE } from './options';
import { deleteOp, encodeKey, encodeRow, insertOps, upsertOps } from './write-ops';
import { checkWriteOptions } from './arguments';

type Pending =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly table: EntityTable;
      readonly entity: object;
      readonly ttl: WriteOptions['ttl'];
    }
  | { readonly kind: 'delete'; readonly table: EntityTable; readonly key: unknown[] };

/**
 * Collects writes and commits them in one database transaction, in the order given. It commits
 * once: after commit() — whether it succeeded or failed — it takes nothing more, so a retry can
 * never "succeed" having written nothing.
 */
export class RelationalUnitOfWork implements UnitOfWork {
  private readonly pending: Pending[] = [];
  private committed = false;

  constructor(
    private readonly tableOf: (target: EntityClass) => EntityTable,
    private readonly executor: Executor,
  ) {}

  insert(entity: object, options?: WriteOptions): this {
    return this.write('insert', entity, options);
  }

  upsert(entity: object, options?: WriteOptions): this {
    return this.write('upsert', entity, options);
  }

  delete<T>(target: EntityClass<T>, key: KeyInput<T>): this {
    this.checkOpen('delete()');
    const table = this.tableOf(target as EntityClass);
    // The key is encoded now: a bad key fails at this call, not at commit.
    this.pending.push({ kind: 'delete', table, key: encodeKey(table, key) });
    return this;
  }

  /** `ttl` applies to every insert/upsert that has none of its own. Nothing is written if any write fails. */
  async commit(options?: WriteOptions): Promise<void> {
    this.checkOpen('commit()');
    // A bad options argument is refused before the commit starts: the unit of work stays usable.
    const fallback = checkWriteOptions(options, 'commit()').ttl;
    this.committed = true;
    const ops: BatchOp[] = [];
    for (const item of this.pending) {
      const t = item.table;
      if (item.kind === 'delete') {
        ops.push(deleteOp(t, item.key));
        continue;
      }
      const ttl = item.ttl ?? fallback;
      const row = encodeRow(t, item.entity);
      // A loop, not push(...spread): no argument list built per row of a large unit of work.
      for (const op of item.kind === 'insert' ? insertOps(t, row, ttl) : upsertOps(t, row, ttl)) ops.push(op);
    }
    if (ops.length > 0) await this.executor.batch(ops);
  }

  private write(kind: 'insert' | 'upsert', entity: object, options: WriteOptions | undefined): this {
    this.checkOpen(`${kind}()`);
    const table = this.tableOf(entityClassOf(entity, `${kind}()`, RELATIONAL_STORE));
    const { ttl } = checkWriteOptions(options, `${kind}()`);
    this.pending.push({ kind, table, entity, ttl });
    return this;
  }

  private checkOpen(call: string): void {
    if (!this.committed) return;
    throw new LifespanError(
      ErrorCodes.UOW_ALREADY_COMMITTED,
      `${call} on a unit of work that was already committed (commits once, whether it succeeded or failed)`,
      { store: RELATIONAL_STORE, hint: 'build a new unitOfWork() for the next batch of writes' },
    );
  }
}
