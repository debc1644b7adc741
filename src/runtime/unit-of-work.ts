import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import type { PerWriteTtl } from '../model/per-write-ttl';
import type { EntityClass, EntityModel } from '../model/types';
import type { KeyInput, UnitOfWork, WriteOptions } from '../providers/contract';
import { entityClassOf, writeOptions } from './arguments';
import { adoptVersion, withInitialVersion, withUpsertVersion } from './versioned-writes';
import { keyValues } from './entity-values';

/**
 * What every store's unit of work does the same: queue the writes, check each argument at its call
 * (the entity class, the options, a delete's key by the shared key rules), check the commit options
 * before anything is spent, and commit once (after commit(), successful or not, it takes nothing
 * more, so a retry can never "succeed" having written nothing). A provider supplies only how it
 * finds an entity's mapping, how a queued operation is built and how the queue is committed.
 */
export abstract class UnitOfWorkShell<Op, Mapping extends { readonly entity: EntityModel }> implements UnitOfWork {
  private readonly queued: Op[] = [];
  /** The caller's entities and the versioned copies queued for them: versions set once committed. */
  private readonly versioned: Array<{ readonly entity: EntityModel; readonly given: object; readonly record: object }> =
    [];
  private committed = false;
  /** The last entity class queued and its mapping: a unit's writes are mostly of one class. */
  private lastTarget: EntityClass | null = null;
  private lastMapping: Mapping | null = null;

  /** `mappingOf`: the mapping of an entity class; a class outside the model throws UNKNOWN_ENTITY (at the call). */
  protected constructor(
    protected readonly store: string,
    private readonly mappingOf: (target: EntityClass) => Mapping,
  ) {}

  insert(entity: object, options?: WriteOptions): this {
    return this.queueWrite('insert', entity, options);
  }

  upsert(entity: object, options?: WriteOptions): this {
    return this.queueWrite('upsert', entity, options);
  }

  delete<T>(target: EntityClass<T>, key: KeyInput<T>): this {
    this.requireOpen('delete()');
    const mapping = this.mappingOf(target as EntityClass);
    // A missing key fails here, as on a repository's delete(), not first at commit().
    const values = keyValues(mapping.entity, key as KeyInput<unknown>, this.store);
    this.queued.push(this.deleteOp(mapping, values));
    return this;
  }

  /** `ttl` applies to every insert/upsert that has none of its own. */
  async commit(options?: WriteOptions): Promise<void> {
    this.requireOpen('commit()');
    // Checked before the unit is spent: a bad argument leaves it usable.
    const { ttl } = writeOptions(options, 'commit()', this.store);
    this.committed = true;
    await this.commitOps(this.queued, ttl);
    for (const { entity, given, record } of this.versioned) adoptVersion(entity, given, record);
  }

  /** The queued operation of an insert/upsert; may check and encode now, so a bad value fails at the call. */
  protected abstract writeOp(
    kind: 'insert' | 'upsert',
    mapping: Mapping,
    entity: object,
    ttl: PerWriteTtl | undefined,
  ): Op;

  /** The queued operation of a delete; `key` holds every key member (checked by the shared key rules). */
  protected abstract deleteOp(mapping: Mapping, key: Record<string, unknown>): Op;

  /** Sends the queue to the store; a failure says what stayed written where the store is not atomic. */
  protected abstract commitOps(ops: readonly Op[], commitTtl: PerWriteTtl | undefined): Promise<void>;

  private queueWrite(kind: 'insert' | 'upsert', entity: object, options: WriteOptions | undefined): this {
    const call = WRITE_CALLS[kind];
    this.requireOpen(call);
    const target = entityClassOf(entity, call, this.store);
    const { ttl } = writeOptions(options, call, this.store);
    const mapping = target === this.lastTarget ? (this.lastMapping as Mapping) : this.mappingFor(target);
    // An inserted record starts at version 1 (an upserted one at least 1), as through a repository;
    // the caller's entity gets it once the commit stored it.
    const record =
      kind === 'insert' ? withInitialVersion(mapping.entity, entity) : withUpsertVersion(mapping.entity, entity);
    // Appended by index: optimized code inlines the store, where push() was a builtin call per write.
    const queued = this.queued;
    queued[queued.length] = this.writeOp(kind, mapping, record, ttl);
    if (record !== entity) this.versioned.push({ entity: mapping.entity, given: entity, record });
    return this;
  }

  /** The mapping of `target` (UNKNOWN_ENTITY outside the model), remembered for the next write. */
  private mappingFor(target: EntityClass): Mapping {
    const mapping = this.mappingOf(target);
    this.lastTarget = target;
    this.lastMapping = mapping;
    return mapping;
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

/** Each write's name in messages, built once (every queued write names it before any check). */
const WRITE_CALLS = { insert: 'unitOfWork().insert()', upsert: 'unitOfWork().upsert()' } as const;

/** The TTL a queued insert/upsert is written with, on every store: its own, else the one commit() was given. */
export function writeTtl(own: PerWriteTtl | undefined, commitTtl: PerWriteTtl | undefined): PerWriteTtl | undefined {
  return own ?? commitTtl;
}
