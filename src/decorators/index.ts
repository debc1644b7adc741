export { Entity, TimeToLive } from './entity-decorators';
export { Field, Key, PartitionKey, ClusteringKey, CreatedAt, UpdatedAt } from './field-decorators';
