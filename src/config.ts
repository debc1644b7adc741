import type { Model } from './model/types';
import type { Store } from './providers/contract';

/**
 * What a store factory of `lifespan.config.ts` may return: a Store, or the store with the
 * secrets every output must mask and a dispose() that closes the driver after the run.
 */
export type StoreFactoryResult =
  | Store
  | {
      readonly store: Store;
      /** Passwords, keys and tokens of the connection; the CLI masks them in every line it prints. */
      readonly secrets?: readonly string[];
      /** Closes the driver the factory opened (knex.destroy(), client.close(), …). */
      dispose?(): void | Promise<void>;
    };

/**
 * A named store of the config. `offline` is true when an offline command (snapshot, diff,
 * explain <file>) calls it only to learn the store's kind, relational TTL mode and SQL dialect:
 * nothing is queried then, so a factory that connects eagerly (node-redis's `connect()`) may skip it.
 */
export type StoreFactory = (context: { readonly offline: boolean }) => StoreFactoryResult | Promise<StoreFactoryResult>;

/** What `lifespan.config.ts` exports as default: the model and named store factories. */
export interface LifespanConfig {
  readonly model: Model;
  readonly stores?: Readonly<Record<string, StoreFactory>>;
}

/**
 * Types a config file's default export (no runtime effect):
 * `export default defineConfig({ model, stores: { main: () => ({ store, dispose }) } })`.
 */
export function defineConfig<const C extends LifespanConfig>(config: C): C {
  return config;
}
