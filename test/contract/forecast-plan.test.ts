/**
 * Issue 25, finding 2 (the review half): plan({ counts: true }) for a TTL change shows the expiry
 * forecast of the stored records before and after the step where the change reaches stored data
 * (Cosmos DB, MongoDB: retroactive), and the plan render says "at apply: N expire at once;
 * within 1h: X, was Y". Where a change reaches new writes only, the stored forecast does not move
 * and the step carries none.
 */
import 'reflect-metadata';
import { CreatedAt, Entity, Field, Key, ModelBuilder, renderPlanText, TimeToLive } from '../../src';
import { CONTRACT_STORES, type OpenedContract } from './stores';

const prefix = `fcp${process.pid % 10000}`;

@Entity()
@TimeToLive('1h')
class Offer {
  @Key() id = '';
  @Field() note = '';
  @CreatedAt() createdAt = new Date(0);
}

const collection = `${prefix}_offer`;
const model = new ModelBuilder().entity(Offer, (e) => e.toCollection(collection)).build();
const longer = new ModelBuilder().entity(Offer, (e) => e.toCollection(collection).timeToLive('30d')).build();

for (const store of CONTRACT_STORES) {
  store.describe('plan({ counts: true }) shows the forecast around a TTL change', () => {
    let opened: OpenedContract | undefined;

    beforeAll(async () => {
      opened = await store.open(model, prefix);
      await opened.db.ensureCollections();
      const repo = opened.db.repository(Offer);
      for (const id of ['a', 'b', 'c'])
        await repo.insert(Object.assign(new Offer(), { id, note: 'n', createdAt: new Date(Date.now() - 60_000) }));
    });
    afterAll(async () => {
      await opened?.close();
    });

    test('before and after, per bucket', async () => {
      const changed = await (opened?.sibling as NonNullable<OpenedContract['sibling']>)(longer);
      const plan = await changed.plan({ counts: true });
      const step = plan.steps.find((s) => s.ttl?.to === 30 * 86400);
      expect(step).toBeDefined();
      if (store.can.ttlChangeEffect !== 'retroactive') {
        expect(step?.effect?.forecast).toBeUndefined();
        return;
      }
      const forecast = step?.effect?.forecast;
      expect(forecast?.before.buckets.map((b) => b.count)).toEqual([3, 0, 0, 0, 0]);
      expect(forecast?.after.buckets.map((b) => b.count)).toEqual([0, 0, 0, 3, 0]);
      expect(renderPlanText(plan)).toContain(
        'forecast: at apply: 0 expire at once; within 1h: 0, was 3; 1h–1d: 0; 1d–7d: 0; 7d–30d: 3, was 0',
      );
    });
  });
}
