export { MongoStore, type MongoStoreOptions } from './store';
export { mongodbExplainer, type MongoExplainOptions } from './explainer';
export type { MongoDbLike, MongoCollectionLike } from './gateway';
export type { MongoStepPayload } from './plan';
export { MongoCommitError } from './unit-of-work';
