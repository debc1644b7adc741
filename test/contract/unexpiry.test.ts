/**
 * Issue 25, finding 3: un-expiry is guarded on every store where it can happen. A step that makes
 * records that are due but still stored readable again is labelled so in the plan, counted with
 * counts, and needs its own consent (allowUnexpiry) in apply() and ensureCollections(); where it
 * cannot happen (Cassandra, Redis), explain() says why and the same change applies without it.
 * Cases: relational emulation turned off, a longer Cosmos DefaultTimeToLive, a longer MongoDB TTL
 * index (collMod) while a due document waits for the TTL monitor.
 */
import 'reflect-metadata';
import {
  CreatedAt,
  Entity,
  Field,
  Key,
  ModelBuilder,
  renderPlanText,
  TimeToLive,
  connect,
  type StoreContext,
} from '../../src';
import { RelationalStore } from '../../src/providers/relational';
import type { MemoryDb } from '../mongodb/fake/memory-db';
import { CONTRACT_STORES, type OpenedContract } from './stores';

const prefix = `unx${process.pid % 10000}`;

@Entity()
@TimeToLive(2)
class Visit {
  @Key() id = '';
  @Field() note = '';
  @CreatedAt() createdAt = new Date(0);
}

const collection = `${prefix}_visit`;
const model = new ModelBuilder().entity(Visit, (e) => e.toCollection(collection)).build();
const longer = new ModelBuilder().entity(Visit, (e) => e.toCollection(collection).timeToLive('1h')).build();

/** Where a due record can be read (or kept) again, and the change that does it here. */
const POSSIBLE = new Set(['sqlite', 'postgres', 'mariadb', 'cosmos', 'cosmos-live', 'mongodb-fake', 'mongodb-live']);
const RELATIONAL = new Set(['sqlite', 'postgres', 'mariadb']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const store of CONTRACT_STORES) {
  store.describe('un-expiry needs allowUnexpiry', () => {
    let opened: OpenedContract | undefined;
    let changed: StoreContext;

    beforeAll(async () => {
      opened = await store.open(model, prefix);
      await opened.db.ensureCollections();
      await opened.db
        .repository(Visit)
        .insert(Object.assign(new Visit(), { id: 'due', note: 'n', createdAt: new Date() }));
      const fake = opened.raw?.mongo as MemoryDb | undefined;
      if (store.name === 'mongodb-fake' && fake) fake.advance(4);
      else await sleep(3200);
      const knex = opened.raw?.knex;
      // Relational: emulation turned off for the same model and tables; elsewhere a longer TTL.
      changed =
        RELATIONAL.has(store.name) && knex
          ? await connect(model, new RelationalStore({ knex, ttl: 'ignore', logger: { warn: () => undefined } }))
          : await (opened.sibling as NonNullable<OpenedContract['sibling']>)(longer);
    });

    afterAll(async () => {
      if (RELATIONAL.has(store.name)) await changed?.close();
      await opened?.close();
    });

    test('explain says whether un-expiry can happen on this store, and why', () => {
      const entry = changed.explain().entries.find((e) => e.entity === 'Visit');
      // With TTL ignored nothing expires on the relational store any more: nothing can come back.
      expect(entry?.unexpiry?.possible).toBe(POSSIBLE.has(store.name) && !RELATIONAL.has(store.name));
      if (!POSSIBLE.has(store.name) || RELATIONAL.has(store.name))
        expect(entry?.unexpiry?.text).toMatch(/^cannot happen/);
      const before = opened?.db.explain().entries.find((e) => e.entity === 'Visit');
      expect(before?.unexpiry?.possible).toBe(POSSIBLE.has(store.name));
    });

    test('the plan labels and counts the step; apply(), checkPlan() and ensureCollections() refuse it without allowUnexpiry', async () => {
      const plan = await changed.plan({ counts: true });
      const step = plan.steps.find((s) => s.effect?.unexpires === true);
      if (!POSSIBLE.has(store.name)) {
        expect(step).toBeUndefined();
        expect(plan.steps.length).toBeGreaterThan(0);
        await changed.apply(plan);
        return;
      }
      expect(step).toBeDefined();
      expect(step?.effect?.unexpired).toBe(store.name === 'cosmos-live' ? 0 : 1);
      expect(renderPlanText(plan)).toContain('un-expiry');
      const refusal = { code: 'PLAN_UNEXPIRY_NOT_ALLOWED', store: store.can.storeName };
      expect(() => changed.checkPlan(plan)).toThrow(expect.objectContaining(refusal));
      await expect(changed.apply(plan)).rejects.toMatchObject({
        ...refusal,
        message: expect.stringContaining('readable again'),
        hint: expect.stringContaining('allowUnexpiry'),
      });
      // The payload decides, not the label: a step stripped of its label is refused all the same.
      const relabelled = {
        ...plan,
        steps: plan.steps.map((s) =>
          s.effect ? { ...s, effect: { ...s.effect, unexpires: false, unexpired: 0 } } : s,
        ),
      };
      await expect(changed.apply(relabelled)).rejects.toMatchObject(refusal);
      if (!RELATIONAL.has(store.name)) {
        await expect(changed.ensureCollections()).rejects.toMatchObject({
          code: 'ENSURE_NEEDS_REVIEW',
          hint: expect.stringContaining('allowUnexpiry'),
        });
      }
      await changed.apply(plan, { allowUnexpiry: true });
    });
  });
}
