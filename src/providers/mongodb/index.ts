/**
 * `lifespan-orm/mongodb`: the MongoDB store. mongodb (6 or 7) is an optional peer dependency.
 * @module lifespan-orm/mongodb
 */
export { MongoStore, type MongoStoreOptions } from './store';
export { mongodbExplainer, type MongoExplainOptions } from './explainer';
export type { MongoDbLike, MongoCollectionLike } from './gateway';
export type { MongoStepPayload } from './plan';
export { MongoCommitError } from './unit-of-work';
