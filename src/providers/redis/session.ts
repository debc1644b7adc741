import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, MigrationPlan, PlanStep } from '../../core/plan';
import type { CheckedStep } from '../../core/plan-gate';
import type { EntityClass } from '../../model/types';
import { planOptions } from '../../runtime/arguments';
import { ensureCollections } from '../../runtime/ensure-collections';
import { lookupByEntity } from '../../runtime/entity-lookup';
import type { ApplyOptions, EnsureOptions, PlanOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import type { CompiledModel, KeyspaceMapping } from './compile';
import { explainMapping } from './explain-entry';
import { CLUSTER_SAY } from './cluster-semantics';
import { countLonger } from './impact';
import { inspectDefaults, planSteps, type RedisStepPayload } from './plan';
import { RedisRepository } from './repository';
import type { RedisRouter } from './router';
import { STORE } from './semantics';
import { applyPlan, checkedSteps, runCheckedSteps } from './steps';
import { RedisUnitOfWork } from './unit-of-work';
import type { EntityForecast, ForecastSpec } from '../../core/forecast';
import { forecastKeyspace } from './forecast';

export class RedisSession implements StoreSession {
  readonly store = STORE;
  private readonly mappingOf: (target: unknown) => KeyspaceMapping;

  constructor(
    private readonly client: RedisRouter,
    private readonly prefix: string,
    private readonly compiled: CompiledModel,
    private readonly target: string,
  ) {
    this.mappingOf = lookupByEntity(STORE, compiled.mappings);
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

  async plan(given?: PlanOptions): Promise<MigrationPlan> {
    const options = planOptions(given, STORE);
    const { mappings } = this.compiled;
    const steps = planSteps(this.prefix, mappings, await inspectDefaults(this.client, this.prefix, mappings));
    return {
      store: STORE,
      target: this.target,
      steps: options.counts ? await countLonger(this.client, this.prefix, mappings, steps) : steps,
    };
  }

  checkPlan(plan: MigrationPlan, options: ApplyOptions = {}): void {
    checkedSteps(this.prefix, plan, options);
  }

  apply(plan: MigrationPlan, options: ApplyOptions = {}): Promise<ApplyResult> {
    return applyPlan({ client: this.client, prefix: this.prefix }, plan, options);
  }

  /** Records the defaults; never retroactive on Redis (stored keys keep their expiry). */
  ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    return ensureCollections<PlanStep, CheckedStep<RedisStepPayload>>(
      {
        store: STORE,
        plan: async () => (await this.plan()).steps,
        refuseConflicts: (steps) =>
          checkedSteps(
            this.prefix,
            { store: STORE, target: this.target, steps },
            { allowRetroactive: true, allowUnexpiry: true },
          ),
        apply: async (steps, applied: PlanStep[]) => {
          await runCheckedSteps({ client: this.client, prefix: this.prefix }, steps, applied);
        },
        // One HSET per default: nothing another process can make fail between plan and apply.
        lostRace: () => false,
      },
      options,
    );
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new RedisRepository<T>({ client: this.client, prefix: this.prefix }, this.mappingOf(target));
  }

  unitOfWork(): UnitOfWork {
    return new RedisUnitOfWork({ client: this.client, prefix: this.prefix }, (target) => this.mappingOf(target));
  }

  /** A SCAN + PTTL walk per entity, at most spec.cap keys each (forecast.ts). */
  async expiryForecast(spec: ForecastSpec): Promise<EntityForecast[]> {
    const forecasts: EntityForecast[] = [];
    for (const m of this.compiled.mappings) forecasts.push(await forecastKeyspace(this.client, this.prefix, m, spec));
    return forecasts;
  }

  async close(): Promise<void> {
    // The client belongs to the caller; lifespan holds nothing else (scripts stay cached on the server).
  }
}
