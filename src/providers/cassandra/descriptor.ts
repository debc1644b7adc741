import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { connectionErrors } from './connection-errors';
import { cassandraExplainer } from './explainer';
import { STORE } from './semantics';

/** The Cassandra store as the shared code sees it (listed in src/providers/stores.ts). */
export const descriptor = {
  name: STORE,
  explainer: cassandraExplainer,
  mechanisms: ['table-default-ttl', 'none'],
  expiryStampedOnWrite: false,
  urlSchemes: ['cassandra:'],
  urlExamples: ['cassandra://host:9042/keyspace'],
  capabilities: {
    supportsKeep: false,
    supportsExtend: false,
    // One logged batch; inserts checked in it (one partition) or looked up before it is sent.
    atomicUnitOfWork: true,
    emulatesExpiry: false,
    hasSchemaPlan: true,
    ttlChangeEffect: 'new-writes-only',
    ttlMechanism: 'table-default-ttl',
    orderedPages: false,
    // A whole-second USING TTL computed at write time.
    instantSlackMs: 2000,
    instantBoundedByTtl: true,
    // A step's payload holds its CQL.
    statementPlanSteps: true,
    // No aggregate over TTL(): a filtered scan reads each row's.
    forecastWalks: true,
  },
  driverPackages: ['cassandra-driver'],
  connectionErrors,
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openCassandraUrl,
} as const satisfies StoreDescriptor;
