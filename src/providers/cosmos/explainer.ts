import type { ExplainEntry } from '../../explain/entry';
import type { Model } from '../../model/types';
import type { StoreExplainer } from '../contract';
import { compileCosmos, type ContainerSpec, type EntityLayout } from './compile';
import { explainEntity } from './explain-entry';
import { STORE } from './semantics';

export interface CosmosExplainOptions {
  /** The store was opened with hideExpired: reads filter items past _ts + ttl themselves. */
  readonly hideExpired?: boolean;
}

/** Driver-free: what Cosmos DB does with each entity's TTL, in its own terms. */
export const cosmosExplainer: StoreExplainer<CosmosExplainOptions> = {
  store: STORE,
  explain(model: Model, options: CosmosExplainOptions = {}): ExplainEntry[] {
    const schema = compileCosmos(model);
    // Built once: a scan per entity made explain quadratic in the model size.
    const layouts = new Map(schema.layouts.map((l) => [l.entity, l]));
    const containers = new Map(schema.containers.map((c) => [c.id, c]));
    const ctx = { hideExpired: options.hideExpired ?? false };
    return model.entities.map((entity) => {
      const layout = layouts.get(entity.name) as EntityLayout;
      const container = containers.get(layout.container) as ContainerSpec;
      return explainEntity(entity, layout, container, ctx);
    });
  },
};
