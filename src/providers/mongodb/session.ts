import { PlannedSession } from '../../core/planned-session';
import type { CheckedStep } from '../../core/plan-gate';
import { PlanFlow } from '../../core/plan-flow';
import type { PlanDemand, RunConsent } from '../../core/plan-flow-rules';
import { StoreError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult } from '../../core/plan';
import type { EntityClass } from '../../model/types';
import { ensureNeedsReview } from '../../runtime/ensure-collections';
import { lookupByEntity } from '../../runtime/entity-lookup';
import type { EnsureOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import { type MongoStepRun } from './apply';
import { countAffected } from './stored-counts';
import type { CollectionMapping, CompiledModel } from './compile';
import { explainMapping } from './explain-entry';
import type { MongoDbLike } from './gateway';
import { holdsDocuments, inspectSchema } from './inspect';
import { plannedLengthenings, refuseLiveRetroactive } from './live-consent';
import { planSchema, type MongoPlanStep, type MongoStepPayload } from './plan';
import { MongoRepository } from './repository';
import { STORE } from './semantics';
import { MONGODB_STEPS } from './steps';
import { MongoUnitOfWork } from './unit-of-work';
import type { EntityForecast, ForecastSpec } from '../../core/forecast';
import { forecastCollection, withForecastAround } from './forecast';
import { labelUnexpiry, refuseLiveUnexpiry, refuseUnexpiry } from './unexpiry';

/** Codes that mean the collection changed between plan and apply; ensureCollections plans again. */
const REPLAN_CODES = new Set(['MONGO_INDEX_OPTIONS_CONFLICT', 'MONGO_INDEX_NAME_CONFLICT', 'MONGO_INDEX_GONE']);

export class MongoSession extends PlannedSession implements StoreSession {
  readonly store = STORE;
  private readonly mappingOf: (target: unknown) => CollectionMapping;
  protected readonly flow: PlanFlow<MongoStepPayload, 'op', MongoStepRun, undefined, MongoDbLike>;

  constructor(
    private readonly db: MongoDbLike,
    private readonly compiled: CompiledModel,
    private readonly hideExpired: boolean,
    target: string,
  ) {
    super();
    this.mappingOf = lookupByEntity(STORE, compiled.mappings);
    this.flow = new PlanFlow({
      steps: MONGODB_STEPS,
      target,
      scope: undefined,
      hold: (work) => work(this.db),
      desired: (demand) => this.desired(demand),
      runContext: (steps, consent) => this.runContext(steps, consent),
      ensure: {
        holdsRecords: (step, db) => holdsDocuments(db, step.collection, step.entity ?? undefined),
        needsReview: (review) =>
          ensureNeedsReview(
            review
              .map((s) => `${s.entity ?? s.collection}: ${s.summary} would make documents already stored expire`)
              .join('; '),
            { store: STORE, entity: review[0]?.entity ?? undefined },
          ),
        refuseUnexpiry: (steps, db) => refuseUnexpiry(db, steps),
        // The collection changed between plan and apply: ensureCollections plans again.
        lostRace: (error) => error instanceof StoreError && REPLAN_CODES.has(error.code),
        afterLostRace: 'stop',
      },
    });
  }

  explain(): ExplainEntry[] {
    return this.compiled.mappings.map((m) => explainMapping(m, { hideExpired: this.hideExpired }));
  }

  /** Checks the whole plan first (conflicts, steps over stored documents), then applies it. */
  override ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    return this.flow.ensureCollections(options);
  }

  /** The TTL indexes from what is live to the model, labelled; with counts, the documents each step reaches. */
  private async desired(demand: PlanDemand): Promise<MongoPlanStep[]> {
    const live = await inspectSchema(
      this.db,
      this.compiled.mappings.map((m) => m.collection),
    );
    const planned = planSchema(this.compiled.mappings, live, { allowDestructive: demand.allowDestructive });
    const steps = await labelUnexpiry(this.db, planned, demand.counts);
    if (!demand.counts) return steps;
    return withForecastAround(this.db, this.compiled.mappings, await countAffected(this.db, steps));
  }

  /**
   * What the steps run with. apply() judges a plan's collMod and createIndexes steps against the
   * live indexes (a payload is editable and a collMod carries only the new value); the steps
   * ensureCollections() runs come from its own inspection, judged then.
   */
  private async runContext(
    steps: readonly CheckedStep<MongoStepPayload>[],
    consent: RunConsent,
  ): Promise<MongoStepRun> {
    if (consent.by === 'ensureCollections') {
      // With allowRetroactive nothing is judged: every step has consent.
      return { db: this.db, judgedFrom: consent.allowRetroactive ? new Map() : plannedLengthenings(steps) };
    }
    const judgedFrom = await refuseLiveRetroactive(this.db, steps, consent.allowRetroactive);
    await refuseLiveUnexpiry(this.db, steps, consent.allowUnexpiry);
    return { db: this.db, judgedFrom };
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
