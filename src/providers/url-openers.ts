import { LifespanError } from '../errors';
import type { UrlOpener } from './connection-target';
import { DESCRIPTORS } from './registry';
import type { StoreDescriptor } from './store-descriptor';

/** URL scheme (lower case, with its colon) → the store that opens such URLs. */
export type UrlTable = ReadonlyMap<string, StoreDescriptor>;

/** The URL table of `descriptors`: each of their schemes → its store. */
export function urlTableOf(descriptors: readonly StoreDescriptor[]): UrlTable {
  return new Map(descriptors.flatMap((d) => d.urlSchemes.map((scheme) => [scheme.toLowerCase(), d] as const)));
}

const URL_TABLE = urlTableOf(DESCRIPTORS);

/** The store whose scheme `url` has, or CLI_UNKNOWN_URL listing every scheme of `table`. */
export function storeForUrl(url: string, table: UrlTable = URL_TABLE): StoreDescriptor {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase();
  const store = scheme ? table.get(scheme) : undefined;
  if (!store) {
    // Only a recognised scheme shape is repeated: the rest of an unknown URL may be a password.
    const what = scheme && /^[a-z][a-z0-9+.-]{0,20}:$/i.test(scheme) ? `'${scheme}' URLs` : 'a URL without a scheme';
    const examples = [...new Set(table.values())].flatMap((d) => d.urlExamples);
    throw new LifespanError('CLI_UNKNOWN_URL', `cannot open ${what}`, {
      hint: `use one of: ${[...table.keys()].join(' ')} (e.g. ${examples.join(', ')})`,
    });
  }
  return store;
}

/** The opener of `url`'s store, loaded now from its from-url module: no other store's driver is loaded. */
export function openerFor(url: string, table: UrlTable = URL_TABLE): UrlOpener {
  const store = storeForUrl(url, table);
  const opener = store.loadUrlOpener();
  if (typeof opener !== 'function') {
    throw new LifespanError('CLI_NO_OPENER', `the ${store.name} store has no URL opener`, {
      store: store.name,
      hint: 'reinstall lifespan: its build is incomplete',
    });
  }
  return opener;
}

/** The store a URL opens: the `store` its connection errors name. */
export function storeOfUrl(url: string): string {
  return storeForUrl(url).name;
}

/** Example URLs of every store, for help texts. */
export function urlExamples(): string[] {
  return DESCRIPTORS.flatMap((d) => d.urlExamples);
}
