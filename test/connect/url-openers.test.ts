/**
 * The CLI's URL table is built from the stores' descriptors (their schemes and example URLs), and
 * opening a URL loads that store's opener and no other store's driver.
 */
import type { UrlOpener } from '../../src/providers/connection-target';
import { DESCRIPTORS } from '../../src/providers/registry';
import type { StoreDescriptor } from '../../src/providers/store-descriptor';
import { descriptor as sixth } from '../fixtures/sixth-store/descriptor';
import { openerFor, storeForUrl, storeOfUrl, urlExamples, urlTableOf } from '../../src/providers/url-openers';

/** The driver packages each store loads when it opens a URL (its descriptor's driverPackages). */
const DRIVERS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  DESCRIPTORS.map((d) => [d.name, d.driverPackages]),
);

function fakeStore(loadUrlOpener: () => UrlOpener): StoreDescriptor {
  return {
    name: 'fake',
    explainer: { store: 'fake', explain: () => [] },
    mechanisms: ['none'],
    expiryStampedOnWrite: false,
    urlSchemes: ['fake:', 'fake+tls:'],
    urlExamples: ['fake://host/db'],
    capabilities: sixth.capabilities,
    driverPackages: [],
    connectionErrors: {},
    loadUrlOpener,
  };
}

describe('the URL table', () => {
  test('is built from the descriptors: an added descriptor adds its schemes, opened only when used', () => {
    const opener: UrlOpener = jest.fn();
    const load = jest.fn(() => opener);
    const table = urlTableOf([...DESCRIPTORS, fakeStore(load)]);
    expect(storeForUrl('FAKE+TLS://host/db', table).name).toBe('fake');
    expect(storeForUrl('redis://127.0.0.1:6379/0', table).name).toBe('redis');
    expect(load).not.toHaveBeenCalled();
    expect(openerFor('fake://host/db', table)).toBe(opener);
    expect(load).toHaveBeenCalledTimes(1);
    expect(() => storeForUrl('fake://host/db')).toThrow(expect.objectContaining({ code: 'CLI_UNKNOWN_URL' }));
  });

  test('holds every scheme of every store, each claimed by one store only', () => {
    const table = urlTableOf(DESCRIPTORS);
    const claims = DESCRIPTORS.flatMap((d) => d.urlSchemes.map((scheme) => `${scheme} ${d.name}`));
    expect([...table].map(([scheme, d]) => `${scheme} ${d.name}`)).toEqual(claims);
    expect(claims.map((c) => c.split(' ')[0]).filter((s) => !/^[a-z][a-z0-9+.-]*:$/.test(s ?? ''))).toEqual([]);
  });

  test("every store's example URL opens with that store", () => {
    const misrouted = DESCRIPTORS.flatMap((d) =>
      d.urlExamples.filter((url) => storeOfUrl(url) !== d.name).map((url) => `${url} (${d.name})`),
    );
    expect(misrouted).toEqual([]);
    expect(urlExamples()).toEqual(DESCRIPTORS.flatMap((d) => d.urlExamples));
  });

  test('an unknown scheme lists every scheme and an example of every store, and repeats nothing else', () => {
    let error: { code?: string; message?: string; hint?: string } = {};
    try {
      storeForUrl('oracle://scott:tiger@host/db');
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('CLI_UNKNOWN_URL');
    expect(error.message).toContain("cannot open 'oracle:' URLs");
    expect(error.message).not.toContain('tiger');
    for (const d of DESCRIPTORS) {
      for (const text of [...d.urlSchemes, ...d.urlExamples]) expect(error.hint).toContain(text);
    }
    expect(() => storeForUrl('no scheme at all')).toThrow('cannot open a URL without a scheme');
  });
});

describe('opening a URL loads only its own store', () => {
  test.each(DESCRIPTORS.map((d) => [d.name, d.urlExamples[0] as string]))(
    '%s (%s): no other store’s driver is loaded',
    (store, url) => {
      jest.isolateModules(() => {
        // Mock factories outlive isolateModules: each test sets every driver's. A package the
        // store loads itself is never mocked, even when another store loads it too.
        const own = new Set(DRIVERS[store]);
        for (const [other, drivers] of Object.entries(DRIVERS)) {
          for (const driver of drivers.filter((d) => !own.has(d))) {
            jest.doMock(driver, () => {
              throw new Error(`${driver} (${other}) must not load for a ${store} URL`);
            });
          }
        }
        for (const driver of own) jest.dontMock(driver);
        const isolated = require('../../src/providers/url-openers') as typeof import('../../src/providers/url-openers');
        expect(typeof isolated.openerFor(url)).toBe('function');
      });
    },
  );

  test('the checks see every store: each names the driver packages it loads', () => {
    const listed: readonly StoreDescriptor[] = DESCRIPTORS;
    expect(listed.filter((d) => d.driverPackages.length === 0).map((d) => d.name)).toEqual([]);
  });
});
