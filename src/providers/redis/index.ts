/**
 * `lifespan-orm/redis`: the Redis store (Redis 7.0+). redis (node-redis 5 or 6) is an optional peer dependency.
 * @module lifespan-orm/redis
 */
export { RedisStore, type RedisStoreOptions } from './store';
export { redisExplainer, type RedisExplainOptions } from './explainer';
export type { RedisClientLike } from './gateway';
export type { RedisStepPayload } from './plan';
