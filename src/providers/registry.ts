import type { ConnectionErrorPatterns } from './connection-patterns';
import type { StoreDescriptor } from './store-descriptor';
import { STORES } from './stores';

/**
 * Everything that used to be a line per store in the shared code (store names, explainers, their
 * options) is derived here from the descriptors src/providers/stores.ts lists.
 */
type Listed = (typeof STORES)[number];

/** The stores lifespan compiles to. */
export type StoreName = Listed['name'];

/** The listed descriptors, in the order of src/providers/stores.ts. */
export const DESCRIPTORS: readonly Listed[] = STORES;

/** The names of `descriptors`, in their order. */
export function storeNamesOf<D extends StoreDescriptor>(descriptors: readonly D[]): D['name'][] {
  return descriptors.map((d) => d.name);
}

/** The driver-free explainers of `descriptors` by store name. */
export function explainersOf<D extends StoreDescriptor>(
  descriptors: readonly D[],
): { readonly [N in D['name']]: Extract<D, { name: N }>['explainer'] } {
  return Object.fromEntries(descriptors.map((d) => [d.name, d.explainer])) as never;
}

export const STORE_NAMES: readonly StoreName[] = storeNamesOf(DESCRIPTORS);

/** Whether `name` is a built-in store's (the Store contract also takes a store written outside lifespan). */
export function isStoreName(name: string): name is StoreName {
  return (STORE_NAMES as readonly string[]).includes(name);
}

/** The driver-free explainers by store name, for explain(model, { stores }) without a connection. */
export const EXPLAINERS = explainersOf(DESCRIPTORS);

type OptionsOf<E> = E extends { explain(model: never, options?: infer O): unknown } ? O : never;

/** Per-store explain options, e.g. `{ relational: { ttl: 'emulate' } }`. */
export type ExplainStoreOptions = { [K in StoreName]?: OptionsOf<Extract<Listed, { name: K }>['explainer']> };

/** The connection-error patterns of `descriptors`, in their order (for the shared matching). */
export function connectionErrorsOf(descriptors: readonly StoreDescriptor[]): ConnectionErrorPatterns[] {
  return descriptors.map((d) => d.connectionErrors);
}

/**
 * The connection-error patterns of the store named `store`: its descriptor's, none for a store
 * lifespan does not list (the shared matching adds the network codes every driver shares).
 */
export function connectionErrorsFor(
  store: string,
  descriptors: readonly StoreDescriptor[] = DESCRIPTORS,
): ConnectionErrorPatterns[] {
  return connectionErrorsOf(descriptors.filter((d) => d.name === store));
}

/**
 * Every listed store's connection-error patterns, for the one path that cannot know the store: a
 * config's store factory that threw before it returned a store.
 */
export const CONNECTION_ERRORS: readonly ConnectionErrorPatterns[] = connectionErrorsOf(DESCRIPTORS);
