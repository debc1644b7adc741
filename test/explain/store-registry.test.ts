/**
 * The store names, the driver-free explainers and the explain mechanisms come from the stores'
 * descriptors (src/providers/<store>/descriptor.ts, listed in src/providers/stores.ts): a store
 * added there is in STORE_NAMES, explain() and the Mechanism type with no other line.
 */
import { explain, STORE_NAMES as PUBLIC_STORE_NAMES, type Mechanism } from '../../src';
import { model } from '../../examples/models';
import type { ExplainEntry } from '../../src/explain/entry';
import {
  DESCRIPTORS,
  EXPLAINERS,
  explainersOf,
  STORE_NAMES,
  storeNamesOf,
  type ExplainStoreOptions,
} from '../../src/providers/registry';
import type { StoreDescriptor } from '../../src/providers/store-descriptor';
import { descriptor as sixth } from '../fixtures/sixth-store/descriptor';

const fakeExplainer = { store: 'fake', explain: (): ExplainEntry[] => [] };
const fake = {
  name: 'fake',
  explainer: fakeExplainer,
  mechanisms: ['none'],
  expiryStampedOnWrite: false,
  urlSchemes: ['fake:'],
  urlExamples: ['fake://host/db'],
  capabilities: { ...sixth.capabilities, ttlMechanism: 'none' },
  driverPackages: [],
  connectionErrors: {},
  loadUrlOpener: () => jest.fn(),
} as const satisfies StoreDescriptor;

describe('the store registry', () => {
  test('lists the stores in the documented order, the order explain() reports them and the CLI lists them', () => {
    // As docs/cli.md (--store) states it, once: the registry's order is public.
    const documented = ['cosmos', 'cassandra', 'mongodb', 'redis', 'relational'];
    const reported = explain(model, { relational: { ttl: 'emulate' } }).entries.map((entry) => entry.store);
    expect([...new Set(reported)]).toEqual(documented);
    expect(PUBLIC_STORE_NAMES).toEqual(documented);
    expect(Object.keys(EXPLAINERS)).toEqual(documented);
  });

  test('store names and explainers are derived from the descriptors: an added one is in both', () => {
    expect(storeNamesOf([...DESCRIPTORS, fake])).toEqual([...STORE_NAMES, 'fake']);
    const explainers = explainersOf([...DESCRIPTORS, fake]);
    expect(explainers.fake).toBe(fakeExplainer);
    expect(Object.keys(explainers)).toEqual([...STORE_NAMES, 'fake']);
  });

  test("each descriptor's explainer explains for its own store, and EXPLAINERS holds it", () => {
    const mismatched = DESCRIPTORS.filter((d) => d.explainer.store !== d.name || EXPLAINERS[d.name] !== d.explainer);
    expect(mismatched.map((d) => d.name)).toEqual([]);
  });

  test('every explain entry reports a mechanism its store declares', () => {
    const options: ExplainStoreOptions = { relational: { ttl: 'emulate' } };
    const undeclared = [explain(model), explain(model, options)]
      .flatMap((report) => report.entries)
      .filter((entry) => {
        const declared: readonly Mechanism[] = DESCRIPTORS.find((d) => d.name === entry.store)?.mechanisms ?? [];
        return !declared.includes(entry.mechanism);
      })
      .map((entry) => `${entry.store} ${entry.entity}: ${entry.mechanism}`);
    expect(undeclared).toEqual([]);
  });

  test('the Mechanism type is the union of what the descriptors declare', () => {
    const all: Mechanism[] = ['container-ttl', 'table-default-ttl', 'ttl-index', 'key-expiry', 'emulated', 'none'];
    expect([...new Set(DESCRIPTORS.flatMap((d) => d.mechanisms))].sort()).toEqual([...all].sort());
    // Checked by the type checker only (npm run typecheck, ts-jest diagnostics): no runtime check could fail here.
    // @ts-expect-error a mechanism no descriptor declares is not a Mechanism
    const undeclared: Mechanism = 'ttl-nowhere';
    void undeclared;
  });
});
