import { runSteps } from '../../core/plan-gate';
import { ErrorCodes } from '../../error-codes';
import { LifespanError, StoreError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, MigrationPlan } from '../../explain/plan';
import { showValue } from '../../model/duration';
import type { EntityClass } from '../../model/types';
import type { ApplyOptions, EnsureOptions, PlanOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import { countAffected } from './apply';
import type { CollectionMapping, CompiledModel } from './compile';
import { explainMapping } from './explain-entry';
import { serverMessage, type MongoDbLike } from './gateway';
import { inspectSchema } from './inspect';
import { expiresStoredDocuments, planSchema, type MongoPlanStep } from './plan';
import { MongoRepository } from './repository';
import { STORE } from './semantics';
import { applyPlan, checkedSteps, MONGODB_STEPS } from './steps';
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
    const steps = await this.planSteps(options.allowDestructive ?? false);
    return { store: STORE, target: this.target, steps: options.counts ? await countAffected(this.db, steps) : steps };
  }

  private async planSteps(allowDestructive: boolean): Promise<MongoPlanStep[]> {
    const live = await inspectSchema(
      this.db,
      this.compiled.mappings.map((m) => m.collection),
    );
    return planSchema(this.compiled.mappings, live, { allowDestructive });
  }

  checkPlan(plan: MigrationPlan, options: ApplyOptions = {}): void {
    checkedSteps(plan, options);
  }

  apply(plan: MigrationPlan, options: ApplyOptions = {}): Promise<ApplyResult> {
    return applyPlan(this.db, plan, options);
  }

  async ensureCollections(options: EnsureOptions = {}): Promise<ApplyResult> {
    try {
      return await this.ensureOnce(options);
    } catch (error) {
      if (!(error instanceof StoreError && REPLAN_CODES.has(error.code))) throw error;
      return this.ensureOnce(options);
    }
  }

  /** Checks the whole plan first (conflicts, steps over stored documents), then applies it. */
  private async ensureOnce(options: EnsureOptions): Promise<ApplyResult> {
    const planned = await this.planSteps(false);
    // The gate refuses conflicts; steps over stored documents are judged by ensureCollections' own rule below.
    const steps = checkedSteps({ store: STORE, target: this.target, steps: planned }, { allowRetroactive: true });
    if (options.allowRetroactive !== true) await this.refuseRetroactive(steps);
    return runSteps(MONGODB_STEPS, steps, this.db);
  }

  /**
   * A step that makes stored documents eligible for deletion at once (a shortening, a TTL index
   * created or converted over documents) is left to a reviewed plan, unless its collection is empty.
   */
  private async refuseRetroactive(steps: readonly MongoPlanStep[]): Promise<void> {
    // A collection this plan creates holds nothing yet; any other is asked once, for one document.
    const holds = new Map<string, boolean>(
      steps.filter((s) => s.action === 'create-collection').map((s) => [s.collection, false]),
    );
    const review: MongoPlanStep[] = [];
    for (const step of steps) {
      if (!expiresStoredDocuments(step)) continue;
      if (!holds.has(step.collection)) holds.set(step.collection, await this.holdsDocuments(step));
      if (holds.get(step.collection)) review.push(step);
    }
    if (review.length === 0) return;
    throw new LifespanError(
      ErrorCodes.ENSURE_NEEDS_REVIEW,
      `ensureCollections applied nothing: ${review
        .map((s) => `${s.entity ?? s.collection}: ${s.summary} would make documents already stored expire`)
        .join('; ')}`,
      {
        store: STORE,
        entity: review[0]?.entity ?? undefined,
        hint: 'use plan() + apply() after review, or ensureCollections({ allowRetroactive: true })',
      },
    );
  }

  private async holdsDocuments(step: MongoPlanStep): Promise<boolean> {
    const collection = this.db.collection(step.collection);
    try {
      return (await collection.countDocuments({}, { limit: 1 })) > 0;
    } catch (error) {
      throw new StoreError(
        'MONGO_OPERATION_FAILED',
        `counting documents in '${step.collection}' failed: ${serverMessage(error)}`,
        {
          store: STORE,
          entity: step.entity ?? undefined,
          cause: error,
          hint: 'ensureCollections checks whether a collection holds documents before a TTL change; the user needs find on it',
        },
      );
    }
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

  private mappingOf(target: unknown): CollectionMapping {
    const mapping =
      typeof target === 'function' ? this.compiled.mappings.find((m) => m.entity.target === target) : undefined;
    if (!mapping) {
      const what = typeof target === 'function' ? target.name || 'this class' : showValue(target);
      throw new LifespanError(ErrorCodes.UNKNOWN_ENTITY, `${what} is not an entity of this model`, {
        store: STORE,
        hint: `pass a class of the model (${this.compiled.mappings.map((m) => m.entity.name).join(', ')}), or add it with new ModelBuilder().entity(...)`,
      });
    }
    return mapping;
  }
}
