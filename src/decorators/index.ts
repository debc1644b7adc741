export { Entity, TimeToLive } from './entity-decorators';
export { Field, Key, PartitionKey, ClusteringKey, CreatedAt, UpdatedAt, Version, ExpiresAt } from './field-decorators';
export type { EntityClassDecorator } from './entity-decorators';
export type { MemberDecorator } from './field-decorators';
