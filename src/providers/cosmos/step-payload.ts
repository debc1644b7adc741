import type { PlanStep } from '../../core/plan';
import type { ContainerSpec } from './compile';
import type { ContainerTtl } from './item-expiry';

// What plan.ts decides and steps.ts runs, apart from both so neither imports the other for it.

export type CosmosStepPayload =
  | { readonly op: 'create-database'; readonly id: string }
  | { readonly op: 'create-container'; readonly spec: ContainerSpec }
  | {
      readonly op: 'set-default-ttl';
      readonly container: string;
      readonly from: ContainerTtl;
      readonly to: ContainerTtl;
    }
  | {
      readonly op: 'conflict';
      readonly container: string;
      /** Named in the command text: the partition key a new container needs. */
      readonly partitionKeyPath: string;
    };

export type CosmosStep = PlanStep<CosmosStepPayload>;
