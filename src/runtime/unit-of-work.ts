import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import type { PerWriteTtl } from '../model/per-write-ttl';
import type { EntityClass } from '../model/types';
import type { KeyInput, UnitOfWork, WriteOptions } from '../providers/contract';
import { entityClassOf, writeOptions } from './arguments';

/**
 * What every store's unit of work does the same: queue the writes, check each argument at its call,
 * check the commit options before anything is spent, and commit once (after commit(), successful
 * or not, it takes nothing more, so a retry can never "succeed" having written nothing). A provider
 * supplies only how a queued operation is built and how the queue is committed to its store.
 */
export abstract class UnitOfWorkShell<Op> implements UnitOfWork {
  private readonly queued: Op[] = [];
  private committed = false;

  protected constructor(protected readonly store: string) {}

  insert(entity: object, options?: WriteOptions): this {
    return this.queueWrite('insert', entity, options);
  }

  upsert(entity: object, options?: WriteOptions): this {
    return this.queueWrite('upsert', entity, options);
  }

  delete<T>(target: EntityClass<T>, key: KeyInput<T>): this {
    this.requireOpen('delete()');
    this.queued.push(this.deleteOp(target as EntityClass, key as KeyInput<unknown>));
    return this;
  }

  /** `ttl` applies to every insert/upsert that has none of its own. */
  async commit(options?: WriteOptions): Promise<void> {
    this.requireOpen('commit()');
    // Checked before the unit is spent: a bad argument leaves it usable.
    const { ttl } = writeOptions(options, 'commit()', this.store);
    this.committed = true;
    await this.commitOps(this.queued, ttl);
  }

  /** The queued operation of an insert/upsert; may check and encode now, so a bad value fails at the call. */
  protected abstract writeOp(
    kind: 'insert' | 'upsert',
    target: EntityClass,
    entity: object,
    ttl: PerWriteTtl | undefined,
  ): Op;

  protected abstract deleteOp(target: EntityClass, key: KeyInput<unknown>): Op;

  /** Sends the queue to the store; a failure says what stayed written where the store is not atomic. */
  protected abstract commitOps(ops: readonly Op[], commitTtl: PerWriteTtl | undefined): Promise<void>;

  private queueWrite(kind: 'insert' | 'upsert', entity: object, options: WriteOptions | undefined): this {
    const call = `unitOfWork().${kind}()`;
    this.requireOpen(call);
    const target = entityClassOf(entity, call, this.store);
    const { ttl } = writeOptions(options, call, this.store);
    this.queued.push(this.writeOp(kind, target, entity, ttl));
    return this;
  }

  private requireOpen(call: string): void {
    if (!this.committed) return;
    throw new LifespanError(
      ErrorCodes.UOW_ALREADY_COMMITTED,
      `${call} on a unit of work that was already committed (it commits once, whether it succeeded or failed)`,
      {
        store: this.store,
        hint: 'build a new one with unitOfWork() for the next writes (each new unitOfWork() commits once)',
      },
    );
  }
}
