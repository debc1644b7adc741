import { LifespanError } from '../../errors';
import { badPlanStep, wrongStorePlan } from '../../plan-errors';
import type { MigrationPlan } from '../../explain/plan';
import type { CosmosStep } from './plan';
import { STORE } from './semantics';

/**
 * The steps of a plan apply() may run, checked by their payload (what apply() executes), never by
 * their labels. Cosmos plans hold no destructive operation: a payload of any other kind or shape
 * (a drop, a recreate, a step edited by hand) is refused before any step runs.
 */
export function checkedSteps(plan: MigrationPlan, databaseId: string): CosmosStep[] {
  if (plan?.store !== STORE) {
    throw wrongStorePlan(plan?.store, STORE);
  }
  if (!Array.isArray(plan.steps)) throw invalid('the plan has no list of steps');
  return plan.steps.map((step) => {
    const why = payloadProblem((step as { payload?: unknown } | null)?.payload, databaseId);
    if (why) throw invalid(`step '${String(step?.summary)}' ${why}`);
    return step as CosmosStep;
  });
}

function payloadProblem(payload: unknown, databaseId: string): string | undefined {
  if (typeof payload !== 'object' || payload === null) return 'has no Cosmos payload';
  const p = payload as Record<string, unknown>;
  switch (p['kind']) {
    case 'create-database':
      return p['id'] === databaseId ? undefined : `creates database ${String(p['id'])}, not '${databaseId}'`;
    case 'create-container': {
      const spec = p['spec'] as Record<string, unknown> | null | undefined;
      const ok =
        typeof spec === 'object' &&
        spec !== null &&
        typeof spec['id'] === 'string' &&
        typeof spec['partitionKeyPath'] === 'string' &&
        isTtl(spec['defaultTtl']);
      return ok ? undefined : 'has a malformed container spec';
    }
    case 'set-default-ttl':
      return typeof p['container'] === 'string' && isTtl(p['from']) && isTtl(p['to'])
        ? undefined
        : 'has a malformed DefaultTimeToLive change';
    case 'conflict':
      return undefined;
    default:
      return `has an operation lifespan does not run on Cosmos DB (${JSON.stringify(p['kind']) ?? 'none'})`;
  }
}

function isTtl(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isInteger(value));
}

function invalid(message: string): LifespanError {
  return badPlanStep(STORE, message);
}
