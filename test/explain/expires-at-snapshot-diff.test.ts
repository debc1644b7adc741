/**
 * Issue 25: the offline review (snapshot and diff, src/cli/review) treats an expiry member like
 * any other declaration: switching from `timeToLive('30d')` to `.expiresAt(x => x.validUntil)` is
 * a ttl-change step on every store, with the store's effect on the records already stored.
 */
import { compareSnapshots } from '../../src/cli/review/compare';
import { snapshotOf } from '../../src/cli/review/snapshot-file';
import { STORE_NAMES } from '../../src/providers/registry';
import { offerModel } from '../contract/models';

const EVERY_STORE_EMULATED = {
  stores: STORE_NAMES,
  relationalTtl: 'emulate',
  relationalDialect: 'sqlite',
  source: 'flags',
} as const;

test('snapshot records instant:<member>; diff shows the switch as a reviewed step with its effect', () => {
  const before = snapshotOf(offerModel('duration'), EVERY_STORE_EMULATED);
  const after = snapshotOf(offerModel('member'), EVERY_STORE_EMULATED);
  expect(after.entries.map((e) => [e.store, e.countsFrom]).sort()).toEqual(
    STORE_NAMES.map((store) => [store, 'instant:validUntil']).sort(),
  );
  const plans = compareSnapshots(before, after, 'HEAD');
  for (const plan of plans) {
    const steps = plan.steps.filter((s) => s.entity === 'Offer');
    expect([plan.store, steps.map((s) => s.action)]).toEqual([plan.store, ['ttl-change']]);
    const [step] = steps;
    // The summary names what changed first: the mechanism (Cassandra: table default → none) or what expiry counts from.
    expect(step?.summary).toMatch(/instant:validUntil|expiry mechanism/);
    expect(step?.effect?.text.length).toBeGreaterThan(0);
  }
  const effect = (store: string) => plans.find((p) => p.store === store)?.steps[0]?.effect?.kind;
  // MongoDB's new TTL index judges every stored document's validUntil; the stamping stores change new writes only.
  expect(effect('mongodb')).toBe('retroactive');
  expect(effect('cassandra')).toBe('new-writes-only');
  expect(effect('redis')).toBe('new-writes-only');
  expect(effect('relational')).toBe('new-writes-only');
});
