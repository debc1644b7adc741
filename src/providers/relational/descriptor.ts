import type { UrlOpener } from '../connection-target';
import type { StoreDescriptor } from '../store-descriptor';
import { connectionErrors } from './connection-errors';
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
  capabilities: {
    supportsKeep: true,
    supportsExtend: true,
    atomicUnitOfWork: true,
    // With `ttl: 'emulate'`, the setting the contract suite runs the store with: 'ignore' and
    // 'reject' expire nothing (explain's mechanism is then 'none').
    emulatesExpiry: true,
    hasSchemaPlan: true,
    ttlChangeEffect: 'new-writes-only',
    ttlMechanism: 'emulated',
    orderedPages: true,
    // expires_at keeps the instant itself.
    instantSlackMs: 0,
    instantBoundedByTtl: false,
    // A step's payload holds its SQL.
    statementPlanSteps: true,
  },
  driverPackages: ['knex', 'better-sqlite3', 'pg', 'mysql2'],
  connectionErrors,
  loadUrlOpener: (): UrlOpener => (require('./from-url') as typeof import('./from-url')).openRelationalUrl,
} as const satisfies StoreDescriptor;
