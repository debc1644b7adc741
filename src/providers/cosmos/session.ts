import { LifespanError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, MigrationPlan, PlanStep } from '../../explain/plan';
import type { EntityClass } from '../../model/types';
import type { ApplyOptions, PlanOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import { applySteps } from './apply';
import type { CosmosContext } from './context';
import { clientNowSeconds } from './expiry';
import { cosmosExplainer } from './explainer';
import { countExpiringAtOnce } from './impact';
import { inspectContainers } from './inspect';
import { planSteps, withAffectedCount, type CosmosStep, type CosmosStepPayload } from './plan';
import { CosmosRepository } from './repository';
import { STORE } from './semantics';
import { CosmosUnitOfWork } from './unit-of-work';

/** ensureCollections() re-plans after losing a race with a concurrent creator or replacer. */
const ENSURE_ROUNDS = 3;

export class CosmosSession implements StoreSession {
  readonly store = STORE;

  constructor(
    private readonly context: CosmosContext,
    private readonly target: string,
  ) {}

  explain(): ExplainEntry[] {
    return cosmosExplainer.explain(this.context.model, { hideExpired: this.context.hideExpired });
  }

  async plan(options: PlanOptions = {}): Promise<MigrationPlan> {
    const specs = this.context.schema.containers;
    const live = await inspectContainers(
      this.context.database,
      specs.map((s) => s.id),
    );
    let steps = planSteps(specs, live);
    if (options.counts) {
      const now = clientNowSeconds();
      steps = await Promise.all(steps.map((step) => this.counted(step, now)));
    }
    return { store: STORE, target: this.target, steps };
  }

  async apply(plan: MigrationPlan, _options: ApplyOptions = {}): Promise<ApplyResult> {
    const steps = cosmosSteps(plan);
    refuseConflicts(steps);
    try {
      return { applied: await applySteps(this.context.database, steps) };
    } finally {
      this.context.forgetContainerSettings();
    }
  }

  /** Creates missing containers and sets DefaultTimeToLive in place; never drops or recreates. */
  async ensureCollections(): Promise<ApplyResult> {
    const applied: PlanStep[] = [];
    for (let round = 1; ; round += 1) {
      const plan = await this.plan();
      if (plan.steps.length === 0) return { applied };
      try {
        applied.push(...(await this.apply(plan)).applied);
      } catch (error) {
        const lostRace = error instanceof LifespanError && error.code === 'COSMOS_PLAN_STALE';
        if (!lostRace || round >= ENSURE_ROUNDS) throw error;
      }
    }
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new CosmosRepository<T>(this.context, this.context.access(target));
  }

  unitOfWork(): UnitOfWork {
    return new CosmosUnitOfWork(this.context);
  }

  async close(): Promise<void> {
    // lifespan holds nothing: the Database (and its client) belong to the caller.
  }

  private async counted(step: CosmosStep, now: number): Promise<CosmosStep> {
    if (step.payload.kind !== 'set-default-ttl') return step;
    const container = this.context.database.container(step.payload.container);
    const affected = await countExpiringAtOnce(container, step.payload.from, step.payload.to, now);
    return withAffectedCount(step, affected, now);
  }
}

const KINDS: ReadonlySet<string> = new Set<CosmosStepPayload['kind']>([
  'create-container',
  'set-default-ttl',
  'conflict',
]);

function cosmosSteps(plan: MigrationPlan): CosmosStep[] {
  if (plan.store !== STORE) {
    throw new LifespanError('PLAN_WRONG_STORE', `this plan was made for '${plan.store}', not for ${STORE}`, {
      store: STORE,
      hint: 'apply a plan with the store context that made it',
    });
  }
  return plan.steps.map((step) => {
    const kind = (step.payload as { kind?: unknown } | null)?.kind;
    if (typeof kind !== 'string' || !KINDS.has(kind)) {
      throw new LifespanError('PLAN_INVALID', `step '${step.summary}' has no Cosmos payload lifespan can run`, {
        store: STORE,
        hint: 'make the plan with plan() of a Cosmos store context',
      });
    }
    return step as CosmosStep;
  });
}

function refuseConflicts(steps: readonly CosmosStep[]): void {
  const conflicts = steps.filter((s) => s.class === 'conflict');
  if (conflicts.length === 0) return;
  throw new LifespanError(
    'COSMOS_PLAN_CONFLICT',
    `the plan has ${conflicts.length} step(s) Cosmos DB cannot make in place, so nothing was applied: ` +
      conflicts.map((s) => s.summary).join('; '),
    {
      store: STORE,
      entity: conflicts[0]?.entity ?? undefined,
      hint: 'a partition key change needs a new container and a copy of the items; lifespan never drops a container, allowDestructive or not',
    },
  );
}
