import { LifespanError } from './errors';
import { connectFailure, mappingConnectionErrors } from './providers/connection-errors';
import type { ConnectionErrorPatterns } from './providers/connection-patterns';
import { connectionErrorsFor } from './providers/registry';
import {
  labelledRetroactive,
  labelledUnexpiry,
  refuseUnconsentedRetroactive,
  refuseUnconsentedUnexpiry,
  shorterTtl,
} from './core/plan-consent';
import { assertModel, assertStore, optionsArgument } from './runtime/arguments';
import { ExplainReport } from './explain/report';
import { forecastSpec, type ExpiryForecastOptions } from './core/forecast';
import { ExpiryForecastReport } from './explain/forecast-report';
import { withReadTouch } from './runtime/touching-repository';
import type { ApplyResult, MigrationPlan, ReviewedPlan } from './core/plan';
import { notAPlan } from './core/plan-refusals';
import { frozenPlainCopy } from './core/frozen-copy';
import type { EntityClass, Model } from './model/types';
import type {
  ApplyOptions,
  EnsureOptions,
  PlanOptions,
  PurgeOptions,
  PurgeResult,
  Repository,
  Store,
  StoreSession,
  UnitOfWork,
} from './providers/contract';

/** A model bound to one live store: the object `connect()` returns. */
export class StoreContext {
  constructor(
    readonly model: Model,
    private readonly session: StoreSession,
    private readonly target: string,
    /** How the store's driver reports a connection failure: the Store's own, else its descriptor's. */
    private readonly connectionErrors: readonly ConnectionErrorPatterns[] = connectionErrorsFor(session.store),
  ) {}

  get store(): string {
    return this.session.store;
  }

  describe(): string {
    return this.target;
  }

  explain(): ExplainReport {
    return new ExplainReport(this.session.explain());
  }

  ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    return this.talking(() => this.session.ensureCollections(options));
  }

  plan(options?: PlanOptions): Promise<MigrationPlan> {
    return this.talking(() => this.session.plan(options));
  }

  /**
   * Applies a reviewed plan. A step that can make records already stored expire at once needs
   * `allowRetroactive: true` (as in ensureCollections()), a destructive one `allowDestructive: true`,
   * one that makes due-but-stored records readable again `allowUnexpiry: true`; without them
   * nothing is applied.
   */
  apply(plan: MigrationPlan, options?: ApplyOptions): Promise<ApplyResult> {
    return this.talking(async () => {
      // The plan gate judges the plan once (the store's review), and its verdict is what runs.
      if (typeof this.session.review === 'function') return this.session.review(plan, options).apply();
      if (typeof this.session.checkPlan === 'function') this.session.checkPlan(plan, options);
      const judged = frozenCopy(plan, this.session.store);
      this.refuseUnconsentedLabels(judged, options);
      return this.session.apply(judged, options);
    });
  }

  /** Throws what apply(plan, options) would refuse the plan with, without touching the store. */
  checkPlan(plan: MigrationPlan, options?: ApplyOptions): void {
    this.review(plan, options);
  }

  /**
   * The plan judged as apply(plan, options) would judge it (throws its refusal), touching nothing;
   * apply() of the result runs what was judged, without judging it again (`lifespan apply`
   * reviews every store's plan before it applies any).
   */
  review(plan: MigrationPlan, options?: ApplyOptions): ReviewedPlan {
    if (typeof this.session.review === 'function') {
      const reviewed = this.session.review(plan, options);
      return { ...reviewed, apply: () => this.talking(() => reviewed.apply()) };
    }
    // A store written for an older contract (plain JavaScript) may lack it: a typed refusal, not a TypeError.
    if (typeof this.session.checkPlan !== 'function') {
      throw new LifespanError(
        'PLAN_CHECK_UNSUPPORTED',
        `the ${this.session.store} store cannot check a plan without applying it`,
        {
          store: this.session.store,
          hint: 'review the plan yourself, then apply() it; or give the store session a checkPlan() (see StoreSession)',
        },
      );
    }
    this.session.checkPlan(plan, options);
    // Judged and run is a frozen copy: a caller editing its plan after review changes nothing.
    const judged = frozenCopy(plan, this.session.store);
    this.refuseUnconsentedLabels(judged, options);
    return {
      store: this.session.store,
      steps: judged.steps,
      apply: () => this.talking(() => this.session.apply(judged, options)),
    };
  }

  /**
   * A session that does not judge plans by the gate (no review()): the steps' labels are judged
   * here at review, before any store of a `lifespan apply` runs anything, as a guard.
   */
  private refuseUnconsentedLabels(plan: MigrationPlan, options?: ApplyOptions): void {
    const consent = optionsArgument<ApplyOptions>(
      options,
      'apply()',
      { store: this.session.store },
      '{ allowRetroactive: true }',
    );
    if (Array.isArray(plan.steps)) {
      const labelled = labelledRetroactive(plan.steps, shorterTtl);
      refuseUnconsentedRetroactive(this.session.store, labelled, consent.allowRetroactive);
      refuseUnconsentedUnexpiry(this.session.store, labelledUnexpiry(plan.steps), consent.allowUnexpiry);
    }
  }

  /** A connection failure in a call that talks to the store, as a typed StoreError. */
  private talking<T>(call: () => Promise<T>): Promise<T> {
    return mappingConnectionErrors(this.session.store, this.target, call, this.connectionErrors);
  }

  /** The store's repository of an entity; get/getMany take read options (sliding expiry on read). */
  repository<T>(target: EntityClass<T>): Repository<T> {
    const inner = this.session.repository(target);
    const entity = this.model.entities.find((e) => e.target === target);
    return entity ? withReadTouch(inner, entity, this.session.store) : inner;
  }

  unitOfWork(): UnitOfWork {
    return this.session.unitOfWork();
  }

  purgeExpired(options?: PurgeOptions): Promise<PurgeResult> {
    if (!this.session.purgeExpired) {
      throw new LifespanError('PURGE_NOT_EMULATED', 'this store expires data natively; there is nothing to purge', {
        store: this.session.store,
        hint: "purgeExpired() is for stores that emulate TTL (relational with ttl: 'emulate')",
      });
    }
    return this.session.purgeExpired(options);
  }

  /** Emulating stores: records due at `now` (default: the store's clock); undefined where the store expires natively. */
  async countExpired(options?: Pick<PurgeOptions, 'now'>): Promise<number | undefined> {
    // Checked on every store, also where nothing is counted: the same input is refused alike everywhere.
    optionsArgument(options, 'countExpired()', { store: this.session.store }, '{ now: new Date() }');
    if (!this.session.countExpired) return undefined;
    return this.talking(() => this.session.countExpired?.(options) ?? Promise.resolve(0));
  }

  close(): Promise<void> {
    return this.session.close();
  }

  /**
   * How many stored records expire when, per entity: due but still stored, within each bucket
   * (default 1h, 1d, 7d, 30d, later), never. Each entry says whether it is exact or sampled (a
   * walk stopped at `cap`), how many records were read and what it cost.
   */
  async expiryForecast(options?: ExpiryForecastOptions): Promise<ExpiryForecastReport> {
    const spec = forecastSpec(options, this.session.store);
    const session = this.session;
    if (typeof session.expiryForecast !== 'function') {
      throw new LifespanError('FORECAST_UNSUPPORTED', `the ${session.store} store cannot forecast expiry`, {
        store: session.store,
        hint: 'give the store session an expiryForecast() (see StoreSession)',
      });
    }
    return new ExpiryForecastReport(await this.talking(() => session.expiryForecast?.(spec) ?? Promise.resolve([])));
  }
}

/** Binds a model to a store (validating it for that store) and returns the store context. */
export async function connect(model: Model, store: Store): Promise<StoreContext> {
  assertModel(model, 'connect()');
  assertStore(store);
  const patterns = store.connectionErrors ? [store.connectionErrors] : connectionErrorsFor(store.name);
  const target = store.describe();
  const session = await mappingConnectionErrors(store.name, target, () => store.open(model), patterns).catch(
    (error: unknown) => {
      // A failure no pattern names is still typed (as the built-in stores' URL openers type it).
      throw connectFailure(error, store.name, target, 'check that the store is reachable and its settings', patterns);
    },
  );
  return new StoreContext(model, session, target, patterns);
}

/** A deep-frozen copy of a plan (plain data): what a review judged is what it runs. */
function frozenCopy(plan: MigrationPlan, store: string): MigrationPlan {
  if (typeof plan !== 'object' || plan === null) throw notAPlan(store);
  return frozenPlainCopy(plan, () => notAPlan(store));
}
