import type { Mechanism } from '../explain/entry';
import type { UrlOpener } from './connection-target';
import type { StoreExplainer } from './contract';

/** A URL scheme with its colon, as `new URL(…).protocol` spells it: 'redis:', 'mongodb+srv:'. */
export type UrlScheme = `${string}:`;

/**
 * What the shared code knows of one store, declared once in its folder (`descriptor.ts`) and
 * listed in `src/providers/stores.ts`: its name, driver-free explainer, explain mechanisms and
 * URL schemes. Nothing here loads the store's driver.
 */
export interface StoreDescriptor<Name extends string = string> {
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
