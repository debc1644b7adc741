import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, MigrationPlan } from '../../explain/plan';
import { showValue } from '../../model/show-value';
import type { EntityClass } from '../../model/types';
import type { ApplyOptions, EnsureOptions, PlanOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import type { CompiledModel, KeyspaceMapping } from './compile';
import { explainMapping } from './explain-entry';
import type { RedisClientLike } from './gateway';
import { countLonger } from './impact';
import { inspectDefaults, planSteps } from './plan';
import { RedisRepository } from './repository';
import { STORE } from './semantics';
import { applyPlan, checkedSteps } from './steps';
import { RedisUnitOfWork } from './unit-of-work';

export class RedisSession implements StoreSession {
  readonly store = STORE;

  constructor(
    private readonly client: RedisClientLike,
    private readonly prefix: string,
    private readonly compiled: CompiledModel,
    private readonly target: string,
  ) {}

  explain(): ExplainEntry[] {
    return this.compiled.mappings.map((m) => explainMapping(m, this.prefix));
  }

  async plan(options: PlanOptions = {}): Promise<MigrationPlan> {
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
  async ensureCollections(_options: EnsureOptions = {}): Promise<ApplyResult> {
    return this.apply(await this.plan());
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new RedisRepository<T>({ client: this.client, prefix: this.prefix }, this.mappingOf(target));
  }

  unitOfWork(): UnitOfWork {
    return new RedisUnitOfWork({ client: this.client, prefix: this.prefix }, (target) => this.mappingOf(target));
  }

  async close(): Promise<void> {
    // The client belongs to the caller; lifespan holds nothing else (scripts stay cached on the server).
  }

  private mappingOf(target: unknown): KeyspaceMapping {
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
