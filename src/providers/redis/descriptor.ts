import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { redisExplainer } from './explainer';
import { STORE } from './semantics';

/** The Redis store as the shared code sees it (listed in src/providers/stores.ts). */
export const descriptor = {
  name: STORE,
  explainer: redisExplainer,
  mechanisms: ['key-expiry', 'none'],
  expiryStampedOnWrite: true,
  urlSchemes: ['redis:', 'rediss:', 'redis+cluster:', 'rediss+cluster:'],
  urlExamples: ['redis://host:6379/0', 'redis+cluster://host:7000,host:7001'],
  loadUrlOpener: (): UrlOpener => (require('./open-url') as typeof import('./open-url')).openRedisStoreUrl,
} as const satisfies StoreDescriptor;
