import { PlannedSession } from '../../core/planned-session';
import type { Database } from '@azure/cosmos';
import { PlanFlow } from '../../core/plan-flow';
import type { PlanDemand } from '../../core/plan-flow-rules';
import { LifespanError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult } from '../../core/plan';
import type { EntityClass } from '../../model/types';
import { ensureNeedsReview } from '../../runtime/ensure-collections';
import type { EnsureOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import type { CosmosContext } from './context';
import { cosmosExplainer } from './explainer';
import { countExpiringAtOnce } from './impact';
import { databaseExists, holdsItems, inspectContainers, type LiveContainer } from './inspect';
import { createDatabaseStep, planSteps, withAffectedCount, type CosmosStep, type CosmosStepPayload } from './plan';
import { CosmosRepository } from './repository';
import { STORE } from './semantics';
import { COSMOS_STEPS } from './steps';
import { CosmosUnitOfWork } from './unit-of-work';
import { forecastSpec, withForecast, type EntityForecast, type ForecastSpec } from '../../core/forecast';
import { forecastAround, forecastContainer } from './forecast';
import { labelUnexpiry, refuseUnexpiry } from './unexpiry';

export class CosmosSession extends PlannedSession implements StoreSession {
  readonly store = STORE;

  protected readonly flow: PlanFlow<CosmosStepPayload, 'op', Database, string, Database>;

  constructor(
    private readonly context: CosmosContext,
    target: string,
  ) {
    super();
    this.flow = new PlanFlow({
      steps: COSMOS_STEPS,
      target,
      scope: context.database.id,
      hold: async (work) => {
        try {
          return await work(this.context.database);
        } finally {
          this.context.forgetContainerSettings();
        }
      },
      desired: (demand) => this.desired(demand),
      ensure: {
        holdsRecords: (step, database) => holdsItems(database, step.collection),
        needsReview: ([step]) =>
          ensureNeedsReview(
            `the step "${step?.summary ?? ''}" can make items already stored in ` +
              `container '${step?.collection ?? ''}' expire at once (${step?.effect?.text ?? 'retroactive'})`,
            { store: STORE, entity: step?.entity ?? undefined },
          ),
        refuseUnexpiry: (steps, database) => refuseUnexpiry(database, steps),
        // A concurrent creator or replacer changed a container between plan and apply.
        lostRace: (error) => error instanceof LifespanError && error.code === 'COSMOS_PLAN_STALE',
        afterLostRace: 'stop',
      },
    });
  }

  explain(): ExplainEntry[] {
    return cosmosExplainer.explain(this.context.model, { hideExpired: this.context.hideExpired });
  }

  /**
   * Creates what is missing and sets DefaultTimeToLive in place; never drops or recreates. A change
   * that can make stored items expire sooner is applied only to an empty container, or with
   * allowRetroactive; otherwise nothing of the plan is applied (ENSURE_NEEDS_REVIEW).
   */
  override ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    return this.flow.ensureCollections(options);
  }

  /** The database and containers from what is live to the model; with counts, the items each step reaches. */
  private async desired(demand: PlanDemand): Promise<CosmosStep[]> {
    const { database, schema, clock } = this.context;
    const live = await inspectContainers(
      database,
      schema.containers.map((s) => s.id),
      clock,
    );
    // A container read answers 404 for a missing database too: only then is the database read.
    const databaseMissing = live.some((c) => !c.exists) && !(await databaseExists(database));
    let steps = [...(databaseMissing ? [createDatabaseStep(database.id)] : []), ...planSteps(schema.containers, live)];
    const now = demand.counts ? await this.serverNow(live) : undefined;
    if (now !== undefined) steps = await Promise.all(steps.map((step) => this.counted(step, now)));
    return Promise.all(steps.map((step) => labelUnexpiry(step, database, now)));
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new CosmosRepository<T>(this.context, this.context.access(target));
  }

  unitOfWork(): UnitOfWork {
    return new CosmosUnitOfWork(this.context);
  }

  /** COUNT queries per entity over _ts + ttl, at the server clock (forecast.ts). */
  async expiryForecast(spec: ForecastSpec): Promise<EntityForecast[]> {
    const forecasts: EntityForecast[] = [];
    for (const entity of this.context.model.entities) {
      const access = this.context.access(entity.target);
      const ttl = await this.context.containerTtl(access.container.id);
      const now = await this.context.serverNowSeconds(access.container.id);
      forecasts.push(await forecastContainer(access, ttl, now, spec));
    }
    return forecasts;
  }

  async close(): Promise<void> {
    // lifespan holds nothing: the Database (and its client) belong to the caller.
  }

  /** The server clock of the container reads just made (the latest Date header), else an estimate. */
  private async serverNow(live: readonly LiveContainer[]): Promise<number> {
    const seen = live.map((c) => c.serverNow).filter((n): n is number => n !== undefined);
    if (seen.length > 0) return Math.max(...seen);
    return this.context.serverNowSeconds(live[0]?.id ?? '');
  }

  private async counted(step: CosmosStep, now: number): Promise<CosmosStep> {
    if (step.payload.op !== 'set-default-ttl') return step;
    const container = this.context.database.container(step.payload.container);
    const affected = await countExpiringAtOnce(container, step.payload.from, step.payload.to, now);
    return this.withForecast(withAffectedCount(step, affected, now), now);
  }

  /** The forecast of the step's entity under the DefaultTimeToLive before and after it (forecast.ts). */
  private async withForecast(step: CosmosStep, now: number): Promise<CosmosStep> {
    const entity = this.context.model.entities.find((e) => e.name === step.entity);
    if (!entity || step.payload.op !== 'set-default-ttl') return step;
    const access = this.context.access(entity.target);
    const spec = forecastSpec(undefined, STORE);
    const { before, after } = await forecastAround(access, step.payload, now, spec);
    return withForecast(step, before, after);
  }
}
