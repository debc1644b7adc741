import 'reflect-metadata';

export * from './errors';
export * from './model';
export * from './decorators';
export * from './explain';
export { explain, type ExplainOptions } from './explain-model';
export { connect, StoreContext } from './connect';
export { defineConfig, type LifespanConfig, type StoreFactory, type StoreFactoryResult } from './config';
export type {
  StoreName,
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
} from './providers/contract';
export { STORE_NAMES } from './providers/contract';
export { ErrorCodes, type ErrorCode } from './error-codes';
