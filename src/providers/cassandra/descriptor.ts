import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
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
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openCassandraUrl,
} as const satisfies StoreDescriptor;
