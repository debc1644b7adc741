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
  urlSchemes: ['redis:', 'rediss:'],
  urlExamples: ['redis://host:6379/0'],
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openRedisUrl,
} as const satisfies StoreDescriptor;
