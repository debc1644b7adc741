import type { Store } from './contract';

/** A store the CLI opened from a URL or a config factory, with what it must close afterwards. */
export interface OpenedStore {
  readonly store: Store;
  /** Passwords and keys of the connection, so every output can mask them. */
  readonly secrets: readonly string[];
  dispose(): Promise<void>;
}

export type UrlOpener = (url: string) => Promise<OpenedStore>;
