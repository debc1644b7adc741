import { LifespanError } from './errors';
import { mappingConnectionErrors } from './providers/connection-errors';
import { assertModel, assertStore } from './runtime/arguments';
import { ExplainReport } from './explain/report';
import type { ApplyResult, MigrationPlan } from './explain/plan';
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
   * `allowRetroactive: true` (as in ensureCollections()), a destructive one `allowDestructive: true`;
   * without them nothing is applied.
   */
  apply(plan: MigrationPlan, options?: ApplyOptions): Promise<ApplyResult> {
    return this.talking(() => this.session.apply(plan, options));
  }

  /** Throws what apply(plan, options) would refuse the plan with, without touching the store. */
  checkPlan(plan: MigrationPlan, options?: ApplyOptions): void {
    this.session.checkPlan(plan, options);
  }

  /** A connection failure in a call that talks to the store, as a typed StoreError. */
  private talking<T>(call: () => Promise<T>): Promise<T> {
    return mappingConnectionErrors(this.session.store, this.target, call);
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return this.session.repository(target);
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
    if (!this.session.countExpired) return undefined;
    return this.talking(() => this.session.countExpired?.(options) ?? Promise.resolve(0));
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

/** Binds a model to a store (validating it for that store) and returns the store context. */
export async function connect(model: Model, store: Store): Promise<StoreContext> {
  assertModel(model, 'connect()');
  assertStore(store);
  const session = await mappingConnectionErrors(store.name, store.describe(), () => store.open(model));
  return new StoreContext(model, session, store.describe());
}
