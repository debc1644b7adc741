import { cassandraExplainer } from './cassandra/explainer';
import type { StoreExplainer, StoreName } from './contract';
import { cosmosExplainer } from './cosmos/explainer';
import { mongodbExplainer } from './mongodb/explainer';
import { redisExplainer } from './redis/explainer';
import { relationalExplainer } from './relational/explainer';

/**
 * The driver-free explainers by store name, for explain(model, { stores }) without a connection.
 * A constant, not a registry: adding a store adds one line here.
 */
export const EXPLAINERS = {
  cosmos: cosmosExplainer,
  cassandra: cassandraExplainer,
  mongodb: mongodbExplainer,
  redis: redisExplainer,
  relational: relationalExplainer,
} as const satisfies { [K in StoreName]: StoreExplainer<never> };

type OptionsOf<E> = E extends { explain(model: never, options?: infer O): unknown } ? O : never;

/** Per-store explain options, e.g. `{ relational: { ttl: 'emulate' } }`. */
export type ExplainStoreOptions = { [K in StoreName]?: OptionsOf<(typeof EXPLAINERS)[K]> };
