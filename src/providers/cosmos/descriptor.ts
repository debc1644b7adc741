import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { cosmosExplainer } from './explainer';
import { STORE } from './semantics';

/** The Cosmos DB store as the shared code sees it (listed in src/providers/stores.ts). */
export const descriptor = {
  name: STORE,
  explainer: cosmosExplainer,
  mechanisms: ['container-ttl', 'none'],
  expiryStampedOnWrite: false,
  urlSchemes: ['cosmos:'],
  urlExamples: ['cosmos:my_database'],
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openCosmosUrl,
} as const satisfies StoreDescriptor;
