import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { connectionErrors } from './connection-errors';
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
  capabilities: {
    supportsKeep: true,
    supportsExtend: true,
    atomicUnitOfWork: false,
    emulatesExpiry: false,
    hasSchemaPlan: true,
    ttlChangeEffect: 'retroactive',
    ttlMechanism: 'ttl-index',
    orderedPages: true,
    // The document keeps the expiry date itself.
    instantSlackMs: 0,
    instantBoundedByTtl: false,
  },
  driverPackages: ['mongodb'],
  connectionErrors,
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openMongoUrl,
} as const satisfies StoreDescriptor;
