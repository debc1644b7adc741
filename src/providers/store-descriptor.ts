import type { ChangeEffectKind } from '../core/plan';
import type { Mechanism } from '../explain/entry';
import type { UrlOpener } from './connection-target';
import type { ConnectionErrorPatterns } from './connection-patterns';
import type { StoreExplainer } from './contract';

/** A URL scheme with its colon, as `new URL(…).protocol` spells it: 'redis:', 'mongodb+srv:'. */
export type UrlScheme = `${string}:`;

/**
 * What the shared code knows of one store, declared once in its folder (`descriptor.ts`) and
 * listed in `src/providers/stores.ts`: its name, driver-free explainer, explain mechanisms and
 * URL schemes, and the facts of StoreFacts. Nothing here loads the store's driver.
 */
export interface StoreDescriptor<Name extends string = string> extends StoreFacts {
  /** `explain(model, { stores: [name] })`, `--store name`, the `store` of its entries and errors. */
  readonly name: Name;
  /** Explains a model without a connection; its options are `explain(model, { [name]: options })`. */
  readonly explainer: StoreExplainer<never>;
  /** Every `mechanism` its explain entries may report: words of the explain vocabulary, checked by `satisfies`. */
  readonly mechanisms: readonly Mechanism[];
  /**
   * lifespan's code stamps each record's expiry when it writes it (an emulated expires_at, an
   * expiry field, a key's EX), so a TTL change that reaches only new writes takes effect when the
   * new code is deployed (`diff` says so without a connection).
   */
  readonly expiryStampedOnWrite: boolean;
  /** The URL schemes the CLI opens with this store (`--url`). */
  readonly urlSchemes: readonly UrlScheme[];
  /** Example URLs for help texts and the hint of an unknown scheme. */
  readonly urlExamples: readonly string[];
  /**
   * The URL opener, loaded on call with `require`: a user of one store never loads another
   * store's driver.
   */
  loadUrlOpener(): UrlOpener;
}

/**
 * What the contract suite (test/contract) holds the store to, as plain data: facts of the store
 * itself, the same on every deployment of it (a cluster, a test server that never expires
 * anything, a fake adds its own in the test). A store with a TTL setting of its own is described
 * with the setting the contract suite runs it with, and the flag says so: the relational store's
 * expiry flags hold with `ttl: 'emulate'` (with 'ignore' or 'reject' it expires nothing).
 */
export interface StoreCapabilities {
  /** Per-write 'keep' (leave the current expiry) is honoured; otherwise UnsupportedTtlError. */
  readonly supportsKeep: boolean;
  /** Per-write { extend } is honoured; otherwise UnsupportedTtlError. */
  readonly supportsExtend: boolean;
  /** A failing unit of work writes nothing; otherwise it reports exactly what was committed. */
  readonly atomicUnitOfWork: boolean;
  /**
   * Expiry is emulated by lifespan (expired rows hidden at once, purgeExpired exists); on the
   * relational store with `ttl: 'emulate'`.
   */
  readonly emulatesExpiry: boolean;
  /** plan()/apply() change the store's schema in place (on Redis: the recorded default TTL). */
  readonly hasSchemaPlan: boolean;
  /** What a planned change of the default TTL does to stored data (step.effect.kind; never 'none'). */
  readonly ttlChangeEffect: Exclude<ChangeEffectKind, 'none'>;
  /**
   * The explain entry's mechanism for an entity with a declared TTL: one of `mechanisms` (on the
   * relational store with `ttl: 'emulate'`, as emulatesExpiry).
   */
  readonly ttlMechanism: Mechanism;
  /** findPage() pages come in key order and are full but the last (a keyset walk); else short/unordered pages are allowed. */
  readonly orderedPages: boolean;
  /**
   * How far expiresAt() may be from a `{ at }` instant written: 0 where the store keeps the instant
   * itself, about 2 s where lifespan computes a whole-second TTL at write time.
   */
  readonly instantSlackMs: number;
  /** The latest `{ at }` accepted is bounded by the store's largest TTL (a TTL computed at write time). */
  readonly instantBoundedByTtl: boolean;
  // The flags below are optional, absent meaning false: a store that lacks the trait says nothing.
  /**
   * A plan step carries the native statements apply() runs as text in its payload (SQL, CQL);
   * without it a step carries structured commands.
   */
  readonly statementPlanSteps?: boolean;
  /**
   * A unit of work that inserts one key twice is refused before anything is sent, also where a
   * failing unit of work is not atomic.
   */
  readonly repeatedInsertRefusedFirst?: boolean;
  /**
   * expiryForecast() walks the records (a cap makes it a sample) where other stores aggregate:
   * the store has no aggregate over expiry.
   */
  readonly forecastWalks?: boolean;
}

/** The store facts the shared code and the test suite read, besides those of StoreDescriptor itself. */
export interface StoreFacts {
  /** What the contract suite holds the store to. */
  readonly capabilities: StoreCapabilities;
  /** The npm packages the store loads (its optional peer dependencies), none of them at import. */
  readonly driverPackages: readonly string[];
  /** How its drivers report a failure to connect (its folder's connection-errors.ts). */
  readonly connectionErrors: ConnectionErrorPatterns;
}
