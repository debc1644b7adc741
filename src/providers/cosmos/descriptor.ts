import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { connectionErrors } from './connection-errors';
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
  capabilities: {
    supportsKeep: true,
    supportsExtend: true,
    atomicUnitOfWork: false,
    emulatesExpiry: false,
    hasSchemaPlan: true,
    ttlChangeEffect: 'retroactive',
    ttlMechanism: 'container-ttl',
    orderedPages: false,
    // A whole-second item ttl, counted from the server's `_ts`.
    instantSlackMs: 2000,
    instantBoundedByTtl: true,
    // The unit of work checks its own keys before it sends its first operation.
    repeatedInsertRefusedFirst: true,
  },
  driverPackages: ['@azure/cosmos'],
  connectionErrors,
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openCosmosUrl,
} as const satisfies StoreDescriptor;
