import { PlannedSession } from '../../core/planned-session';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, PlanStep } from '../../core/plan';
import { PlanFlow } from '../../core/plan-flow';
import type { PlanDemand } from '../../core/plan-flow-rules';
import type { EntityClass } from '../../model/types';
import { lookupByEntity } from '../../runtime/entity-lookup';
import type { EnsureOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import type { CompiledModel, KeyspaceMapping } from './compile';
import { explainMapping } from './explain-entry';
import { CLUSTER_SAY } from './cluster-semantics';
import { countLonger } from './impact';
import { inspectDefaults, planSteps, type RedisStepPayload } from './plan';
import { RedisRepository } from './repository';
import type { RedisRouter } from './router';
import { STORE } from './semantics';
import { redisSteps, type RedisRun } from './steps';
import { RedisUnitOfWork } from './unit-of-work';
import type { EntityForecast, ForecastSpec } from '../../core/forecast';
import { forecastKeyspace } from './forecast';

export class RedisSession extends PlannedSession implements StoreSession {
  readonly store = STORE;
  private readonly mappingOf: (target: unknown) => KeyspaceMapping;
  protected readonly flow: PlanFlow<RedisStepPayload, 'op', RedisRun, undefined, RedisRun>;

  constructor(
    private readonly client: RedisRouter,
    private readonly prefix: string,
    private readonly compiled: CompiledModel,
    target: string,
  ) {
    super();
    this.mappingOf = lookupByEntity(STORE, compiled.mappings);
    const run: RedisRun = { client, prefix };
    this.flow = new PlanFlow({
      steps: redisSteps(prefix),
      target,
      scope: undefined,
      hold: (work) => work(run),
      desired: (demand) => this.desired(demand),
      ensure: {
        // One HSET per default: nothing another process can make fail between plan and apply.
        lostRace: () => false,
        afterLostRace: 'stop',
      },
    });
  }

  explain(): ExplainEntry[] {
    const entries = this.compiled.mappings.map((m) => explainMapping(m, this.prefix));
    if (!this.client.cluster) return entries;
    return entries.map((e) => ({
      ...e,
      limits: [...e.limits, CLUSTER_SAY.walk],
      warnings: [
        ...e.warnings,
        CLUSTER_SAY.instants,
        CLUSTER_SAY.replicas,
        ...(this.client.waitsForReplicas ? [] : [CLUSTER_SAY.acknowledged]),
        CLUSTER_SAY.notifications,
      ],
    }));
  }

  /** Records the defaults; never retroactive on Redis (stored keys keep their expiry). */
  override ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    return this.flow.ensureCollections(options);
  }

  /** The defaults recorded against the model's; with counts, the keys a longer default reaches. */
  private async desired(demand: PlanDemand): Promise<PlanStep<RedisStepPayload>[]> {
    const { mappings } = this.compiled;
    const steps = planSteps(this.prefix, mappings, await inspectDefaults(this.client, this.prefix, mappings));
    return demand.counts ? countLonger(this.client, this.prefix, mappings, steps) : steps;
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new RedisRepository<T>({ client: this.client, prefix: this.prefix }, this.mappingOf(target));
  }

  unitOfWork(): UnitOfWork {
    return new RedisUnitOfWork({ client: this.client, prefix: this.prefix }, (target) => this.mappingOf(target));
  }

  /** Per entity: its collection index a page at a time, or a SCAN + PTTL walk of at most spec.cap keys before the index is built (forecast.ts). */
  async expiryForecast(spec: ForecastSpec): Promise<EntityForecast[]> {
    const forecasts: EntityForecast[] = [];
    for (const m of this.compiled.mappings) forecasts.push(await forecastKeyspace(this.client, this.prefix, m, spec));
    return forecasts;
  }

  async close(): Promise<void> {
    // The client belongs to the caller; lifespan holds nothing else (scripts stay cached on the server).
  }
}
