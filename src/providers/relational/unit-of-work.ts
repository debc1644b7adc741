import { LifespanError } from '../../errors';
import type { EntityClass } from '../../model/types';
import type { KeyInput, UnitOfWork, WriteOptions } from '../contract';
import type { EntityTable } from './entity-table';
import type { BatchOp, Executor } from './executor';
import { RELATIONAL_STORE } from './options';
import { deleteOp, encodeKey, encodeRow, insertOps, upsertOps } from './write-ops';

type Pending =
  | { readonly kind: 'insert' | 'upsert'; readonly entity: object; readonly ttl: WriteOptions['ttl'] }
  | { readonly kind: 'delete'; readonly target: EntityClass; readonly key: unknown };

/** Collects writes and commits them in one database transaction, in the order given. */
export class RelationalUnitOfWork implements UnitOfWork {
  private pending: Pending[] = [];

  constructor(
    private readonly tableOf: (target: EntityClass) => EntityTable,
    private readonly executor: Executor,
  ) {}

  insert(entity: object, options?: WriteOptions): this {
    this.pending.push({ kind: 'insert', entity: checkEntity(entity), ttl: options?.ttl });
    return this;
  }

  upsert(entity: object, options?: WriteOptions): this {
    this.pending.push({ kind: 'upsert', entity: checkEntity(entity), ttl: options?.ttl });
    return this;
  }

  delete<T>(target: EntityClass<T>, key: KeyInput<T>): this {
    this.pending.push({ kind: 'delete', target, key });
    return this;
  }

  /** `ttl` applies to every insert/upsert that has none of its own. Nothing is written if any write fails. */
  async commit(options: WriteOptions = {}): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    const ops: BatchOp[] = [];
    for (const item of pending) {
      if (item.kind === 'delete') {
        const t = this.tableOf(item.target);
        ops.push(deleteOp(t, encodeKey(t, item.key as KeyInput<unknown>)));
        continue;
      }
      const t = this.tableOf(item.entity.constructor as EntityClass);
      const ttl = item.ttl ?? options.ttl;
      const row = encodeRow(t, item.entity);
      ops.push(...(item.kind === 'insert' ? insertOps(t, row, ttl) : upsertOps(t, row, ttl)));
    }
    if (ops.length > 0) await this.executor.batch(ops);
  }
}

function checkEntity(entity: object): object {
  if (typeof entity !== 'object' || entity === null) {
    throw new LifespanError('BAD_ARGUMENT', 'a unit of work writes entity instances', {
      store: RELATIONAL_STORE,
      hint: 'pass an instance of an entity class of the model',
    });
  }
  return entity;
}
