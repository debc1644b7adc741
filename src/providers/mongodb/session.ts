import { runSteps, type CheckedStep } from '../../core/plan-gate';
import { StoreError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, MigrationPlan, PlanStep } from '../../core/plan';
import type { EntityClass } from '../../model/types';
import { planOptions } from '../../runtime/arguments';
import { ensureCollections, ensureNeedsReview } from '../../runtime/ensure-collections';
import { lookupByEntity } from '../../runtime/entity-lookup';
import type { ApplyOptions, EnsureOptions, PlanOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import { countAffected } from './apply';
import type { CollectionMapping, CompiledModel } from './compile';
import { explainMapping } from './explain-entry';
import type { MongoDbLike } from './gateway';
import { holdsDocuments, inspectSchema } from './inspect';
import { plannedLengthenings, type JudgedFrom } from './live-consent';
import { expiresStoredDocuments, planSchema, type MongoPlanStep, type MongoStepPayload } from './plan';
import { MongoRepository } from './repository';
import { STORE } from './semantics';
import { applyPlan, checkedSteps, MONGODB_STEPS } from './steps';
import { MongoUnitOfWork } from './unit-of-work';
import type { EntityForecast, ForecastSpec } from '../../core/forecast';
import { forecastCollection, withForecastAround } from './forecast';
import { labelUnexpiry, refuseUnexpiry } from './unexpiry';

/** Codes that mean the collection changed between plan and apply; ensureCollections plans again. */
const REPLAN_CODES = new Set(['MONGO_INDEX_OPTIONS_CONFLICT', 'MONGO_INDEX_NAME_CONFLICT', 'MONGO_INDEX_GONE']);

export class MongoSession implements StoreSession {
  readonly store = STORE;
  private readonly mappingOf: (target: unknown) => CollectionMapping;

  constructor(
    private readonly db: MongoDbLike,
    private readonly compiled: CompiledModel,
    private readonly hideExpired: boolean,
    private readonly target: string,
  ) {
    this.mappingOf = lookupByEntity(STORE, compiled.mappings);
  }

  explain(): ExplainEntry[] {
    return this.compiled.mappings.map((m) => explainMapping(m, { hideExpired: this.hideExpired }));
  }

  async plan(given?: PlanOptions): Promise<MigrationPlan> {
    const options = planOptions(given, STORE);
    const planned = await this.planSteps(options.allowDestructive ?? false);
    const steps = await labelUnexpiry(this.db, planned, options.counts === true);
    if (!options.counts) return { store: STORE, target: this.target, steps };
    const counted = await withForecastAround(this.db, this.compiled.mappings, await countAffected(this.db, steps));
    return { store: STORE, target: this.target, steps: counted };
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

  /** Checks the whole plan first (conflicts, steps over stored documents), then applies it. */
  ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    // Judged again each round; with allowRetroactive nothing is judged, every step has consent.
    let judgedFrom: JudgedFrom = new Map();
    return ensureCollections<MongoPlanStep, CheckedStep<MongoStepPayload>>(
      {
        store: STORE,
        plan: () => this.planSteps(false),
        // The gate refuses conflicts; steps over stored documents are judged by ensureCollections' own rule.
        refuseConflicts: (steps) =>
          checkedSteps({ store: STORE, target: this.target, steps }, { allowRetroactive: true, allowUnexpiry: true }),
        refuseRetroactive: async (steps) => {
          await this.refuseRetroactive(steps);
          judgedFrom = plannedLengthenings(steps);
        },
        refuseUnexpiry: (steps) => refuseUnexpiry(this.db, steps),
        apply: async (steps, applied: PlanStep[]) => {
          await runSteps(MONGODB_STEPS, steps, { db: this.db, judgedFrom }, applied);
        },
        lostRace: (error) => error instanceof StoreError && REPLAN_CODES.has(error.code),
      },
      options,
    );
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
      if (!holds.has(step.collection)) {
        holds.set(step.collection, await holdsDocuments(this.db, step.collection, step.entity ?? undefined));
      }
      if (holds.get(step.collection)) review.push(step);
    }
    if (review.length === 0) return;
    throw ensureNeedsReview(
      review
        .map((s) => `${s.entity ?? s.collection}: ${s.summary} would make documents already stored expire`)
        .join('; '),
      { store: STORE, entity: review[0]?.entity ?? undefined },
    );
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new MongoRepository<T>({ db: this.db, hideExpired: this.hideExpired }, this.mappingOf(target));
  }

  unitOfWork(): UnitOfWork {
    return new MongoUnitOfWork(this.db, this.hideExpired, (target) => this.mappingOf(target));
  }

  /** One aggregation per collection over the expiry expression (forecast.ts). */
  async expiryForecast(spec: ForecastSpec): Promise<EntityForecast[]> {
    const forecasts: EntityForecast[] = [];
    for (const m of this.compiled.mappings) forecasts.push(await forecastCollection(this.db, m, spec));
    return forecasts;
  }

  async close(): Promise<void> {
    // The Db and its MongoClient belong to the caller; lifespan holds nothing else.
  }
}
