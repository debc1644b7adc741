/**
 * `lifespan-orm/cosmos`: the Azure Cosmos DB (API for NoSQL) store. Needs @azure/cosmos 4.9 or later 4.x.
 * @module lifespan-orm/cosmos
 */
export { CosmosStore, type CosmosStoreOptions } from './store';
export { cosmosExplainer, type CosmosExplainOptions } from './explainer';
export { compileCosmos, type CosmosSchema, type ContainerSpec, type EntityLayout } from './compile';
export type { CosmosStepPayload } from './plan';
