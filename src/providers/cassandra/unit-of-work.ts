import { LifespanError, StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import type { EntityClass } from '../../model/types';
import { keyValues } from '../../runtime/entity-values';
import type { KeyInput, UnitOfWork, WriteOptions } from '../contract';
import type { EntityMapping } from './compile';
import type { SessionContext } from './context';
import type { Params } from './executor';
import { keyParams, partitionIdentity, rowIdentity, rowParams, ttlParams } from './rows';
import { STORE } from './semantics';
import { ttlClause } from './write-ttl';

type Operation =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly mapping: EntityMapping;
      readonly instance: object;
      readonly ttl: PerWriteTtl | undefined;
    }
  | { readonly kind: 'delete'; readonly mapping: EntityMapping; readonly key: Record<string, unknown> };

interface Planned {
  readonly operation: Operation;
  /** Must not exist yet: an insert (possibly followed by upserts of the same key). */
  readonly checkAbsent: boolean;
}

interface Statement {
  readonly query: string;
  readonly params: Params;
  readonly planned: Planned;
  /** Whether the write carries USING TTL ? (its value is the last bound parameter). */
  readonly withTtl: boolean;
}

const PLACE = { store: STORE };

/**
 * Collects writes and sends them as one logged batch. Cassandra gives every statement of a batch
 * the same timestamp (where a delete beats a write of the same row whatever their order), so the
 * operations on one row collapse to the last one before sending.
 *
 * Inserts are checked: within one partition with IF NOT EXISTS in the batch itself (a conditional
 * batch, atomic: nothing is written when a key exists); across partitions Cassandra refuses
 * conditional batches, so the keys are looked up first and the batch sent only if none exists.
 */
export class CassandraUnitOfWork implements UnitOfWork {
  private operations: Operation[] = [];

  constructor(private readonly ctx: SessionContext) {}

  insert(entity: object, options: WriteOptions = {}): this {
    this.operations.push({ kind: 'insert', mapping: this.mappingOf(entity), instance: entity, ttl: options.ttl });
    return this;
  }

  upsert(entity: object, options: WriteOptions = {}): this {
    this.operations.push({ kind: 'upsert', mapping: this.mappingOf(entity), instance: entity, ttl: options.ttl });
    return this;
  }

  delete<T>(target: EntityClass<T>, key: KeyInput<T>): this {
    const mapping = this.ctx.mappingOf(target);
    this.operations.push({ kind: 'delete', mapping, key: keyValues(mapping.entity, key, STORE) });
    return this;
  }

  async commit(options: WriteOptions = {}): Promise<void> {
    if (this.operations.length === 0) return;
    const statements = this.build(collapse(this.operations), options.ttl);
    const checked = statements.filter((s) => s.planned.checkAbsent);
    const partitions = new Set(statements.map((s) => partitionIdentity(s.planned.operation.mapping, record(s))));
    if (statements.length === 1 || checked.length === 0 || partitions.size === 1) {
      const result =
        statements.length === 1
          ? await this.ctx.executor.execute(statements[0]!.query, statements[0]!.params, PLACE, 'unit of work')
          : await this.ctx.executor.batch(statements, PLACE, 'unit of work (logged batch)');
      if (checked.length > 0 && !result.wasApplied()) throw duplicate();
    } else {
      await this.requireAbsent(checked);
      await this.ctx.executor.batch(
        statements.map((s) => (s.planned.checkAbsent ? this.unconditional(s) : s)),
        PLACE,
        'unit of work (logged batch)',
      );
    }
    this.operations = [];
  }

  /** Every statement is built (and every value and TTL checked) before anything is sent. */
  private build(planned: readonly Planned[], commitTtl: PerWriteTtl | undefined): Statement[] {
    const now = this.ctx.now();
    const clock = this.ctx.clock();
    return planned.map((p) => {
      const op = p.operation;
      const statements = this.ctx.statements(op.mapping);
      if (op.kind === 'delete') {
        return { query: statements.deleteByKey(), params: keyParams(op.mapping, op.key), planned: p, withTtl: false };
      }
      const clause = ttlClause(op.mapping, op.ttl ?? commitTtl, clock);
      const params = [...rowParams(op.mapping, op.instance, now, op.kind === 'insert'), ...ttlParams(clause)];
      const query = statements.insert({ withTtl: clause.using, ifNotExists: p.checkAbsent });
      return { query, params, planned: p, withTtl: clause.using };
    });
  }

  private unconditional(s: Statement): Statement {
    return { ...s, query: this.ctx.statements(s.planned.operation.mapping).insert({ withTtl: s.withTtl }) };
  }

  private async requireAbsent(checked: readonly Statement[]): Promise<void> {
    const found = await Promise.all(
      checked.map(async (s) => {
        const op = s.planned.operation;
        const query = this.ctx.statements(op.mapping).existsByKey();
        const params = keyParams(op.mapping, record(s));
        const result = await this.ctx.executor.execute(query, params, PLACE, 'unit of work (insert check)');
        return result.rows.length > 0;
      }),
    );
    if (found.some(Boolean)) throw duplicate();
  }

  private mappingOf(entity: object): EntityMapping {
    if (typeof entity !== 'object' || entity === null) {
      throw new LifespanError('VALUE_INVALID', `expected an entity instance, got ${String(entity)}`, PLACE);
    }
    return this.ctx.mappingOf(entity.constructor as EntityClass);
  }
}

function collapse(operations: readonly Operation[]): Planned[] {
  const byRow = new Map<string, Planned>();
  for (const operation of operations) {
    const id = rowIdentity(operation.mapping, recordOf(operation));
    const previous = byRow.get(id);
    const checkAbsent = operation.kind === 'insert' || (operation.kind === 'upsert' && previous?.checkAbsent === true);
    byRow.delete(id);
    byRow.set(id, { operation, checkAbsent });
  }
  return [...byRow.values()];
}

function recordOf(operation: Operation): Record<string, unknown> {
  return operation.kind === 'delete' ? operation.key : (operation.instance as Record<string, unknown>);
}

function record(s: Statement): Record<string, unknown> {
  return recordOf(s.planned.operation);
}

function duplicate(): StoreError {
  return new StoreError('STORE_DUPLICATE_KEY', 'a row with a key this unit of work inserts already exists', {
    store: STORE,
    hint: 'nothing was written; use upsert() to overwrite',
  });
}
