import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { mongodbExplainer } from './explainer';
import { STORE } from './semantics';

/** The MongoDB store as the shared code sees it (listed in src/providers/stores.ts). */
export const descriptor = {
  name: STORE,
  explainer: mongodbExplainer,
  mechanisms: ['ttl-index', 'none'],
  expiryStampedOnWrite: true,
  urlSchemes: ['mongodb:', 'mongodb+srv:'],
  urlExamples: ['mongodb://host:27017/db'],
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openMongoUrl,
} as const satisfies StoreDescriptor;
