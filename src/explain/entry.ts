import type { ChangeEffectKind } from '../core/plan';
import type { WriteTtlKind } from '../model/per-write-ttl';

/**
 * How a store makes an entity's records expire, as its explain entries report it. The explain
 * vocabulary owns the words: a store's descriptor lists the ones it reports, and the type checker
 * holds that list to this union (`mechanisms` of StoreDescriptor).
 */
export type Mechanism =
  /** One TTL on the whole container, each item's own `ttl` overriding it. */
  | 'container-ttl'
  /** A table's default TTL, each write's USING TTL overriding it. */
  | 'table-default-ttl'
  /** An index that deletes a document once a date member (or stored expiry) is past. */
  | 'ttl-index'
  /** Each key's own expiry, set with the write. */
  | 'key-expiry'
  /** No native expiry: lifespan stores the expiry, hides what is due and purges it. */
  | 'emulated'
  /** Nothing expires. */
  | 'none';

export type { ChangeEffectKind };

export interface PerWriteRow {
  readonly value: WriteTtlKind;
  /**
   * native: the store does it; emulated: lifespan does it exactly; ignored: the write is accepted
   * but nothing expires (a store configured to keep no expiry); unsupported: raises UnsupportedTtlError.
   */
  readonly support: 'native' | 'emulated' | 'ignored' | 'unsupported';
  /** How, in the store's terms (the native clause or command), or why not. */
  readonly how: string;
}

/** The conditional and partial writes of a repository (issue 26), in the order explain() lists them. */
export const CONDITIONAL_WRITES = ['update', 'delete-if-version', 'getOrInsert', 'patch'] as const;
export type ConditionalWrite = (typeof CONDITIONAL_WRITES)[number];

export interface ConditionalWriteRow {
  readonly operation: ConditionalWrite;
  /** The native conditional write, in the store's terms. */
  readonly how: string;
  /** What it does to the record's remaining life (for patch: its default, and with `{ ttl }`). */
  readonly expiry: string;
}

/** One entity on one store: everything the store will actually do, in its own words. */
export interface ExplainEntry {
  readonly entity: string;
  readonly collection: string;
  readonly store: string;
  readonly mechanism: Mechanism;
  /** The key layout in the store's own terms (item id and partition key path, PRIMARY KEY, _id, …). */
  readonly key: string;
  /** Declared default TTL in seconds, or null. */
  readonly seconds: number | null;
  /** 'last-write', 'member:<name>', or null when nothing expires. */
  readonly countsFrom: string | null;
  readonly materializedBy: { readonly text: string; readonly commands: readonly string[] };
  readonly perWrite: readonly PerWriteRow[];
  /** update(), delete({ ifVersion }), getOrInsert() and patch(): the native write and its effect on expiry. */
  readonly conditionalWrites: readonly ConditionalWriteRow[];
  readonly expiredVisibleUntilDeleted: boolean;
  readonly deletion: { readonly by: string; readonly lag: string };
  /**
   * Issue 25: whether a change can make records that are due but still stored readable again
   * (un-expiry, which then needs allowUnexpiry), and why, in the store's words.
   */
  readonly unexpiry?: { readonly possible: boolean; readonly text: string };
  /** Issue 25: how `get(key, { touch })` extends what it reads on this store, and what it costs. */
  readonly touch?: { readonly support: 'native' | 'conditional-write' | 'unsupported'; readonly how: string };
  readonly changeEffect: { readonly kind: ChangeEffectKind; readonly text: string };
  readonly limits: readonly string[];
  readonly warnings: readonly string[];
  /** One short paragraph in the store's own words. */
  readonly text: string;
}
