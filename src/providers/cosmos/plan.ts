import { renderStep } from '../../core/plan-gate';
import type { StepEffect } from '../../core/plan';
import { describeDefaultTtl, type ContainerSpec } from './compile';
import type { ContainerTtl } from './item-expiry';
import type { LiveContainer } from './inspect';
import { COSMOS_STEPS } from './steps';
import { RETROACTIVE_QUALIFIER, RETROACTIVITY_VERIFIED, SERVICE_QUALIFIER, TTL_ON_NO_DEFAULT } from './semantics';
import type { CosmosStep, CosmosStepPayload } from './step-payload';

export type { CosmosStep, CosmosStepPayload } from './step-payload';

/** The command text people review is rendered from the payload apply() runs, by the step table. */
const commandOf = (payload: CosmosStepPayload): string => renderStep(COSMOS_STEPS, payload);

/** The step that creates a missing database (the parent of every container), run before the containers. */
export function createDatabaseStep(id: string): CosmosStep {
  const payload: CosmosStepPayload = { op: 'create-database', id };
  return {
    entity: null,
    collection: id,
    action: 'create-database',
    class: 'additive',
    summary: `create database '${id}'`,
    command: commandOf(payload),
    payload,
  };
}

/** The steps that bring the live containers to the compiled specs (pure: no driver). */
export function planSteps(specs: readonly ContainerSpec[], live: readonly LiveContainer[]): CosmosStep[] {
  const steps: CosmosStep[] = [];
  for (const spec of specs) {
    const current = live.find((c) => c.id === spec.id);
    const entity = spec.entities.length === 1 ? (spec.entities[0] ?? null) : null;
    if (!current?.exists) {
      const payload: CosmosStepPayload = { op: 'create-container', spec };
      steps.push({
        entity,
        collection: spec.id,
        action: 'create-container',
        class: 'additive',
        summary:
          `create container '${spec.id}' (partition key ${spec.partitionKeyPath}, ` +
          `DefaultTimeToLive ${describeDefaultTtl(spec.defaultTtl)})`,
        command: commandOf(payload),
        payload,
      });
      continue;
    }
    const paths = current.partitionKeyPaths;
    if (paths.length !== 1 || paths[0] !== spec.partitionKeyPath) {
      const payload: CosmosStepPayload = {
        op: 'conflict',
        container: spec.id,
        partitionKeyPath: spec.partitionKeyPath,
      };
      steps.push({
        entity,
        collection: spec.id,
        action: 'partition-key-conflict',
        class: 'conflict',
        summary:
          `container '${spec.id}' has partition key ${paths.join(', ') || '(none)'}, the model needs ${spec.partitionKeyPath}: ` +
          'Cosmos DB cannot change a partition key in place, and lifespan never drops a container',
        command: commandOf(payload),
        payload,
      });
    }
    if (current.defaultTtl !== spec.defaultTtl) steps.push(ttlStep(spec, entity, current.defaultTtl));
  }
  return steps;
}

function ttlStep(spec: ContainerSpec, entity: string | null, from: ContainerTtl): CosmosStep {
  const to = spec.defaultTtl;
  const payload: CosmosStepPayload = { op: 'set-default-ttl', container: spec.id, from, to };
  const summary =
    to === null
      ? `container '${spec.id}': remove DefaultTimeToLive (was ${describeDefaultTtl(from)}): TTL off, items never expire and item ttl values stop applying`
      : from === null
        ? `container '${spec.id}': turn TTL on with DefaultTimeToLive ${describeDefaultTtl(to)}`
        : `container '${spec.id}': DefaultTimeToLive ${describeDefaultTtl(from)} → ${describeDefaultTtl(to)}`;
  return {
    entity,
    collection: spec.id,
    action: to === null ? 'remove-default-ttl' : 'set-default-ttl',
    class: 'in-place',
    summary,
    command: commandOf(payload),
    ttl: { from, to },
    effect: ttlEffect(from, to),
    payload,
  };
}

function ttlEffect(from: ContainerTtl, to: ContainerTtl): StepEffect {
  const q = `(${RETROACTIVE_QUALIFIER})`;
  let text: string;
  if (to === null) {
    text = `TTL turns off: no item expires any more, and item ttl values stop applying until TTL is turned on again (${SERVICE_QUALIFIER})`;
  } else if (from === null) {
    text =
      to === TTL_ON_NO_DEFAULT
        ? `TTL turns on: item ttl values apply again against each item's _ts (those already past expire at once); items without one never expire ${q}`
        : `TTL turns on: every item without its own ttl expires at _ts + ${to} (items last written more than ${to}s ago at once), and item ttl values apply again ${q}`;
  } else if (to === TTL_ON_NO_DEFAULT) {
    text = `items without their own ttl stop expiring; items with their own ttl keep it ${q}`;
  } else if (from !== TTL_ON_NO_DEFAULT && to > from) {
    text = `every item without its own ttl is re-judged against its _ts with ${to}s: they live longer; items with their own ttl keep it ${q}`;
  } else {
    text = `every item without its own ttl is re-judged against its _ts with ${to}s: items last written more than ${to}s ago expire at once; items with their own ttl keep it ${q}`;
  }
  return { kind: 'retroactive', text, verified: RETROACTIVITY_VERIFIED };
}

/**
 * The step with the number of items it makes expire at once, counted at `nowSeconds` of the server
 * clock (the Date header of the container read the plan made).
 */
export function withAffectedCount(step: CosmosStep, affected: number, nowSeconds: number): CosmosStep {
  if (!step.effect) return step;
  const when = new Date(nowSeconds * 1000).toISOString();
  return {
    ...step,
    effect: {
      ...step.effect,
      affected,
      text: `${step.effect.text}; ${affected} stored item(s) expire at once (counted with the server clock, now = ${when})`,
    },
  };
}
