/**
 * lifespan: one `@TimeToLive` declaration compiled to each store's native expiry, and explained.
 * The model, decorators, `explain()` and `connect()` live here; each store lives under its own
 * subpath (`lifespan-orm/relational`, `lifespan-orm/cassandra`, `lifespan-orm/mongodb`, `lifespan-orm/cosmos`).
 * @module lifespan
 */
import 'reflect-metadata';

// Named lists, not `export *`: a helper added to a module for the providers stays internal until
// it is added here on purpose (test/package/public-surface.test.ts pins the list).

export {
  LifespanError,
  ModelError,
  TtlError,
  UnsupportedTtlError,
  StoreError,
  type ErrorPlace,
  type LifespanErrorOptions,
  type ModelProblem,
} from './errors';
export {
  ModelBuilder,
  EntityConfigurator,
  FIELD_TYPES,
  DEFAULT_EXPIRY_FIELD,
  parseDuration,
  formatDuration,
  MAX_TTL_SECONDS,
  WRITE_TTL_KINDS,
  type FieldType,
  type EntityClass,
  type SortOrder,
  type FieldModel,
  type ClusteringMember,
  type KeyModel,
  type TtlAnchor,
  type TtlModel,
  type EntityModel,
  type Model,
  type FieldOptions,
  type TtlOptions,
  type MemberSelector,
  type DurationInput,
  type DurationParts,
  type PerWriteTtl,
  type WriteTtlKind,
} from './model';
export * from './decorators';
export * from './explain';
export { explain, type ExplainOptions } from './explain-model';
export { connect, StoreContext } from './connect';
export { defineConfig, type LifespanConfig, type StoreFactory, type StoreFactoryResult } from './config';
export type {
  Store,
  StoreSession,
  StoreExplainer,
  Repository,
  UnitOfWork,
  KeyInput,
  WriteOptions,
  FindOptions,
  PlanOptions,
  ApplyOptions,
  EnsureOptions,
  PurgeOptions,
  PurgeResult,
  DeleteOptions,
  GetOrInsertResult,
  // findPage / iterate / deleteMany (issue 26)
  Page,
  PageOptions,
  IterateOptions,
  DeleteManyOptions,
} from './providers/contract';
export { STORE_NAMES, type StoreName } from './providers/registry';
export { ErrorCodes, type ErrorCode } from './error-codes';

// Issue 25: the expiry forecast.
export { ExpiryForecastReport } from './explain/forecast-report';
export type {
  ExpiryForecastOptions,
  EntityForecast,
  ForecastBucket,
  ForecastCost,
  ForecastMethod,
} from './core/forecast';
export type { ReadOptions } from './providers/contract';
