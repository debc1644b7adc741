import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { relationalExplainer } from './explainer';
import { RELATIONAL_STORE } from './options';

/** The relational store (knex) as the shared code sees it (listed in src/providers/stores.ts). */
export const descriptor = {
  name: RELATIONAL_STORE,
  explainer: relationalExplainer,
  mechanisms: ['emulated', 'none'],
  expiryStampedOnWrite: true,
  urlSchemes: ['sqlite:', 'postgres:', 'postgresql:', 'mysql:', 'mariadb:'],
  urlExamples: ['sqlite:./dev.db', 'postgres://user@host/db', 'mysql://user@host/db'],
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openRelationalUrl,
} as const satisfies StoreDescriptor;
