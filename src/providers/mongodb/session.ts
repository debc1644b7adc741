import { LifespanError, StoreError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, MigrationPlan } from '../../explain/plan';
import type { EntityClass } from '../../model/types';
import type { ApplyOptions, PlanOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import { applyPlan, countAffected } from './apply';
import type { CollectionMapping, CompiledModel } from './compile';
import { explainMapping } from './explain-entry';
import type { MongoDbLike } from './gateway';
import { inspectSchema } from './inspect';
import { planSchema } from './plan';
import { MongoRepository } from './repository';
import { STORE } from './semantics';
import { MongoUnitOfWork } from './unit-of-work';

/** Codes that mean the collection changed between plan and apply; ensureCollections plans once more. */
const REPLAN_CODES = new Set(['MONGO_INDEX_OPTIONS_CONFLICT', 'MONGO_INDEX_NAME_CONFLICT', 'MONGO_INDEX_GONE']);

export class MongoSession implements StoreSession {
  readonly store = STORE;

  constructor(
    private readonly db: MongoDbLike,
    private readonly compiled: CompiledModel,
    private readonly hideExpired: boolean,
    private readonly target: string,
  ) {}

  explain(): ExplainEntry[] {
    return this.compiled.mappings.map((m) => explainMapping(m, { hideExpired: this.hideExpired }));
  }

  async plan(options: PlanOptions = {}): Promise<MigrationPlan> {
    const live = await inspectSchema(
      this.db,
      this.compiled.mappings.map((m) => m.collection),
    );
    const steps = planSchema(this.compiled.mappings, live, { allowDestructive: options.allowDestructive ?? false });
    return { store: STORE, target: this.target, steps: options.counts ? await countAffected(this.db, steps) : steps };
  }

  apply(plan: MigrationPlan, options: ApplyOptions = {}): Promise<ApplyResult> {
    return applyPlan(this.db, plan, options);
  }

  async ensureCollections(): Promise<ApplyResult> {
    try {
      return await this.ensureOnce();
    } catch (error) {
      if (!(error instanceof StoreError && REPLAN_CODES.has(error.code))) throw error;
      return this.ensureOnce();
    }
  }

  private async ensureOnce(): Promise<ApplyResult> {
    const plan = await this.plan();
    const conflicts = plan.steps.filter((s) => s.class === 'conflict');
    if (conflicts.length > 0) {
      throw new StoreError(
        'SCHEMA_CONFLICT',
        `MongoDB cannot reach the model in place: ${conflicts.map((c) => c.summary).join('; ')}`,
        {
          store: STORE,
          hint: 'nothing was changed; review plan({ allowDestructive: true }) and apply it with { allowDestructive: true }',
        },
      );
    }
    return applyPlan(this.db, plan);
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new MongoRepository<T>({ db: this.db, hideExpired: this.hideExpired }, this.mappingOf(target));
  }

  unitOfWork(): UnitOfWork {
    return new MongoUnitOfWork(this.db, this.hideExpired, (target) => this.mappingOf(target));
  }

  async close(): Promise<void> {
    // The Db and its MongoClient belong to the caller; lifespan holds nothing else.
  }

  private mappingOf(target: EntityClass): CollectionMapping {
    const mapping = this.compiled.mappings.find((m) => m.entity.target === target);
    if (!mapping) {
      throw new LifespanError('ENTITY_NOT_IN_MODEL', `${target.name} is not an entity of this model`, {
        store: STORE,
        hint: `add it with new ModelBuilder().entity(${target.name})`,
      });
    }
    return mapping;
  }
}
