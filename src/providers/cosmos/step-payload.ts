import type { PlanStep } from '../../explain/plan';
import type { ContainerSpec } from './compile';
import type { ContainerTtl } from './item-expiry';

// What plan.ts decides and steps.ts runs, apart from both so neither imports the other for it.

export type CosmosStepPayload =
  | { readonly kind: 'create-database'; readonly id: string }
  | { readonly kind: 'create-container'; readonly spec: ContainerSpec }
  | {
      readonly kind: 'set-default-ttl';
      readonly container: string;
      readonly from: ContainerTtl;
      readonly to: ContainerTtl;
    }
  | {
      readonly kind: 'conflict';
      readonly container: string;
      /** Named in the command text: the partition key a new container needs. */
      readonly partitionKeyPath: string;
    };

export type CosmosStep = PlanStep<CosmosStepPayload>;
