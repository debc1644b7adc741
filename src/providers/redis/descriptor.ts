import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { connectionErrors } from './connection-errors';
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
  capabilities: {
    supportsKeep: true,
    supportsExtend: true,
    atomicUnitOfWork: true,
    emulatesExpiry: false,
    // No schema: the plan records the default each collection's writes send (new writes only).
    hasSchemaPlan: true,
    ttlChangeEffect: 'new-writes-only',
    ttlMechanism: 'key-expiry',
    orderedPages: false,
    // PXAT keeps the instant itself.
    instantSlackMs: 0,
    instantBoundedByTtl: false,
  },
  driverPackages: ['redis'],
  connectionErrors,
  loadUrlOpener: (): UrlOpener => (require('./open-url') as typeof import('./open-url')).openRedisStoreUrl,
} as const satisfies StoreDescriptor;
