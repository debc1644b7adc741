/**
 * Issue 25: switching an entity from a duration (`timeToLive('30d')`) to an expiry member
 * (`.expiresAt(x => x.validUntil)`) is a reviewed plan step on every store with a schema plan,
 * with its effect on stored data; applied, the plan is in sync and writes expire at the member.
 */
import type { StoreContext } from '../../src';
import { Offer, offerModel } from './models';
import { CONTRACT_STORES, type OpenedContract } from './stores';

const prefix = `ce${process.pid % 10000}`;

const offer = (id: string, validUntil: Date | null) =>
  Object.assign(new Offer(), { id, createdAt: new Date(), validUntil });

for (const store of CONTRACT_STORES.filter((s) => s.can.hasSchemaPlan)) {
  store.describe('switching @TimeToLive to @ExpiresAt', () => {
    let opened: OpenedContract | undefined;
    let v2: StoreContext;

    beforeAll(async () => {
      opened = await store.open(offerModel('duration', `${prefix}_offer`), prefix);
      if (!opened.sibling) return;
      await opened.db.ensureCollections();
      await opened.db.repository(Offer).upsert(offer('stored', new Date(Date.now() + 86400_000)));
      v2 = await opened.sibling(offerModel('member', `${prefix}_offer`));
    });
    afterAll(async () => {
      await opened?.close();
    });

    test('is a planned step with its effect on stored data; applied, the plan is in sync', async () => {
      expect(opened?.sibling).toBeDefined();
      // MongoDB: the old TTL index on createdAt would keep deleting documents; dropping it is a destructive step.
      const plan = await v2.plan({ counts: true, allowDestructive: true });
      expect(plan.steps.length).toBeGreaterThan(0);
      expect(plan.steps.map((s) => s.class)).not.toContain('conflict');
      const changes = plan.steps.filter((s) => s.entity === 'Offer');
      expect(changes.length).toBeGreaterThan(0);
      // Every change of the expiry says what it does to the records already stored.
      for (const step of changes.filter((s) => s.effect !== undefined)) {
        expect([step.action, typeof step.effect?.text]).toEqual([step.action, 'string']);
      }
      expect(changes.some((s) => s.effect !== undefined)).toBe(true);
      expect(changes.map((s) => s.summary).join('\n')).not.toMatch(/after :|undefined/);
      const explained = v2.explain().entries.find((e) => e.entity === 'Offer');
      expect(explained?.countsFrom).toBe('instant:validUntil');
      // Cosmos DB: DefaultTimeToLive 30d → -1 lengthens every item's life, a reviewed un-expiry step.
      await v2.apply(plan, { allowRetroactive: true, allowDestructive: true, allowUnexpiry: true });
      expect((await v2.plan()).steps).toEqual([]);
      const at = new Date(Date.now() + 7200_000);
      await v2.repository(Offer).upsert(offer('after', at));
      const read = (await v2.repository(Offer).expiresAt('after')) as Date;
      expect(Math.abs(read.getTime() - at.getTime())).toBeLessThanOrEqual(store.can.instantSlackMs);
    });
  });
}
