/**
 * Contract: plan/apply in place, through the one plan gate, on every store of the table. A TTL
 * change is planned and applied in place; a plan that is not this store's, has an edited step, a
 * step labelled a blocking conflict or destructive, or no list of steps, is refused with the same
 * code and the same error class on every store, before anything is written.
 */
import { LifespanError, ModelBuilder, StoreError, type MigrationPlan, type StoreContext } from '../../src';
import { CONTRACT_STORES, type OpenedContract } from './stores';
import { STORE_NAMES } from '../../src/providers/registry';

const prefix = `cp${process.pid % 10000}`;

class Lease {
  id = '';
  createdAt: Date | null = null;
}

/** The same entity at two app versions: only its TTL differs. */
function leaseModel(ttl: number) {
  return new ModelBuilder()
    .entity(Lease, (e) =>
      e
        .toCollection(`${prefix}_lease`)
        .key((l) => l.id)
        .createdAt((l) => l.createdAt)
        .timeToLive(ttl),
    )
    .build();
}

/** The code and class of what `call` throws, or 'applied'. */
async function refusal(call: () => Promise<unknown>): Promise<{ code: string; cls: string; entity?: string }> {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof LifespanError)) return { code: `not a LifespanError: ${String(error)}`, cls: 'none' };
    const cls = error instanceof StoreError ? 'StoreError' : error.constructor.name;
    return { code: error.code, cls, ...(error.entity ? { entity: error.entity } : {}) };
  }
  return { code: 'applied', cls: 'none' };
}

/** A plan with its first step changed by `edit` (plans are plain data a caller may edit). */
function edited(plan: MigrationPlan, edit: (step: MigrationPlan['steps'][number]) => object): MigrationPlan {
  const [first, ...rest] = plan.steps;
  return { ...plan, steps: [{ ...first!, ...edit(first!) } as MigrationPlan['steps'][number], ...rest] };
}

for (const store of CONTRACT_STORES.filter((s) => s.can.hasSchemaPlan)) {
  store.describe('plan/apply contract', () => {
    let opened: OpenedContract | undefined;
    let v1: StoreContext;
    let v2: StoreContext;

    beforeAll(async () => {
      opened = await store.open(leaseModel(3600), prefix);
      // Every schema-plan store opens a sibling; a missing one fails each test below, never skips it.
      if (!opened.sibling) return;
      v1 = opened.db;
      await v1.ensureCollections();
      v2 = await opened.sibling(leaseModel(7200));
    });
    afterAll(async () => {
      await opened?.close();
    });

    test('a TTL change is planned and applied in place; the plan is then in sync', async () => {
      expect(opened?.sibling).toBeDefined();
      const plan = await v2.plan();
      expect(plan.store).toBe(store.can.storeName);
      expect(plan.steps.length).toBeGreaterThan(0);
      expect(plan.steps.map((s) => s.class)).not.toContain('conflict');
      expect(plan.steps.map((s) => s.class)).not.toContain('destructive');
      expect(plan.steps.some((s) => s.ttl?.to === 7200)).toBe(true);
      // review 16 item 8: the effect each store declares, so a flip to the other kind fails here.
      const changes = plan.steps.filter((s) => s.ttl?.to === 7200);
      expect(changes.map((s) => s.effect?.kind)).toEqual(changes.map(() => store.can.ttlChangeEffect));
      // A longer TTL can bring due records back on some stores (Cosmos DB): its own consent,
      // pinned store by store in unexpiry.test.ts.
      const result = await v2.apply(plan, { allowUnexpiry: true });
      expect(result.applied.length).toBeGreaterThan(0);
      expect((await v2.plan()).steps).toEqual([]);
    });

    describe('refused before any step runs: one code, one class, on every store', () => {
      /** v1's plan back to 3600 s: a real, non-empty plan of this store to edit. */
      const back = async () => {
        const plan = await v1.plan();
        expect(plan.steps.length).toBeGreaterThan(0);
        return plan;
      };
      const nothingWritten = async () => expect((await v2.plan()).steps).toEqual([]);

      test('a plan made for another store: PLAN_WRONG_STORE', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const other = STORE_NAMES.find((name) => name !== store.can.storeName) ?? 'another store';
        expect(await refusal(() => v1.apply({ ...plan, store: other }))).toEqual({
          code: 'PLAN_WRONG_STORE',
          cls: 'LifespanError',
        });
        await nothingWritten();
      });

      test('a step whose payload was edited to an operation the store does not make: PLAN_BAD_STEP', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const tampered = edited(plan, (s) => ({
          payload: { ...(s.payload as object), op: 'drop-everything', kind: 'drop-everything' },
        }));
        expect(await refusal(() => v1.apply(tampered, { allowDestructive: true }))).toEqual({
          code: 'PLAN_BAD_STEP',
          cls: 'LifespanError',
          entity: 'Lease',
        });
        await nothingWritten();
      });

      test('a step labelled a (blocking) conflict refuses the whole plan: PLAN_CONFLICT', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const conflicting = edited(plan, () => ({ class: 'conflict' }));
        expect(await refusal(() => v1.apply(conflicting, { allowDestructive: true, allowRetroactive: true }))).toEqual({
          code: 'PLAN_CONFLICT',
          cls: 'LifespanError',
          entity: 'Lease',
        });
        await nothingWritten();
      });

      test('a step labelled destructive needs allowDestructive: PLAN_DESTRUCTIVE_NOT_ALLOWED', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const destructive = edited(plan, () => ({ class: 'destructive' }));
        expect(await refusal(() => v1.apply(destructive, { allowRetroactive: true }))).toEqual({
          code: 'PLAN_DESTRUCTIVE_NOT_ALLOWED',
          cls: 'LifespanError',
          entity: 'Lease',
        });
        await nothingWritten();
      });

      /** The field holding a step's native statements (relational: sql; Cassandra: statements), if any. */
      const statementsOf = (plan: MigrationPlan): { key: string; statements: string[] } | undefined => {
        const payload = plan.steps[0]!.payload as Record<string, unknown>;
        const key = ['sql', 'statements'].find((k) => Array.isArray(payload[k]) && (payload[k] as []).length > 0);
        return key === undefined ? undefined : { key, statements: payload[key] as string[] };
      };
      const withStatements = (plan: MigrationPlan, key: string, statements: string[]) =>
        edited(plan, (s) => ({ payload: { ...(s.payload as object), [key]: statements } }));

      test('a statement appended to a step, or hidden after a comment, is refused: PLAN_BAD_STEP, rows kept', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const found = statementsOf(plan);
        // Where steps carry structured commands, not statement text, there is no text to tamper with.
        expect(found !== undefined).toBe(store.can.statementPlanSteps === true);
        if (found === undefined) return;
        const leases = v1.repository(Lease);
        await leases.insert(Object.assign(new Lease(), { id: 'kept' }));
        const table = plan.steps[0]!.collection;
        const q = store.name === 'mariadb' ? '`' : '"';
        const wipe = store.name === 'cassandra' ? `TRUNCATE ${q}${table}${q}` : `DELETE FROM ${q}${table}${q}`;
        const [first, ...rest] = found.statements;
        const attempts = [
          [`${first}; ${wipe}`, ...rest],
          [...found.statements, wipe],
          [...found.statements, `/* note */ DROP TABLE ${q}${table}${q}`],
          [`${first} -- ${wipe}`, ...rest],
          ...(store.name === 'cassandra' ? [] : [[`UPDATE ${q}${table}${q} SET ${q}expires_at${q} = NULL`]]),
        ];
        for (const statements of attempts) {
          const tampered = withStatements(plan, found.key, statements);
          expect(await refusal(() => v1.apply(tampered, { allowDestructive: true, allowRetroactive: true }))).toEqual({
            code: 'PLAN_BAD_STEP',
            cls: 'LifespanError',
            entity: 'Lease',
          });
        }
        expect((await leases.get({ id: 'kept' }))?.id).toBe('kept');
        await nothingWritten();
      });

      test('a plan edited while apply() runs: the judged copy runs, the edit does not', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const leases = v1.repository(Lease);
        const found = statementsOf(plan);
        if (found) await leases.insert(Object.assign(new Lease(), { id: 'racing' }));
        const running = v1.apply(plan, { allowRetroactive: true });
        const payload = plan.steps[0]!.payload as Record<string, unknown>;
        if (found) {
          const q = store.name === 'mariadb' ? '`' : '"';
          found.statements.push(`DROP TABLE ${q}${plan.steps[0]!.collection}${q}`);
        }
        payload['op'] = 'drop-everything';
        payload['kind'] = 'drop-everything';
        expect((await running).applied.length).toBeGreaterThan(0);
        if (found) expect((await leases.get({ id: 'racing' }))?.id).toBe('racing');
        expect((await v1.plan()).steps).toEqual([]);
        // Back to 7200 s, as the other tests expect.
        await v2.apply(await v2.plan(), { allowRetroactive: true, allowUnexpiry: true });
      });

      test('a step that makes stored records expire needs allowRetroactive, whatever its labels say', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const judged = (p: MigrationPlan) => {
          try {
            v1.checkPlan(p);
          } catch (error) {
            return (error as LifespanError).code;
          }
          return 'passes';
        };
        // Shortening 7200 → 3600 s: stored records expire sooner where the store re-judges them.
        if (store.can.ttlChangeEffect === 'retroactive') {
          expect(judged(plan)).toBe('PLAN_RETROACTIVE_NOT_ALLOWED');
        }
        const relabelled: MigrationPlan = {
          ...plan,
          steps: plan.steps.map(({ effect: _effect, ttl: _ttl, ...step }) => ({
            ...step,
            effect: { kind: 'none', text: 'nothing', verified: true, affected: 0 },
          })),
        };
        expect(judged(relabelled)).toBe(judged(plan));
        await nothingWritten();
      });

      test('a payload edited to claim it expires nothing is judged by what it does: PLAN_RETROACTIVE_NOT_ALLOWED', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const { count, ...command } = plan.steps[0]!.payload as Record<string, unknown>;
        // Only MongoDB's payload carries such a claim: its collMod holds the new value, not the old one.
        if (count === undefined) return expect(store.can.storeName).not.toBe('mongodb');
        for (const claim of [{ count: null }, {}]) {
          // The labels say so too: only what the step does is left to judge it by.
          const tampered = edited(plan, () => ({
            ttl: undefined,
            effect: { kind: 'none', text: 'nothing', verified: true, affected: 0 },
            payload: { ...command, ...claim },
          }));
          expect(await refusal(() => v1.apply(tampered))).toEqual({
            code: 'PLAN_RETROACTIVE_NOT_ALLOWED',
            cls: 'LifespanError',
            entity: 'Lease',
          });
        }
        await nothingWritten();
      });

      test('a command payload edited to a shape lifespan never sends: PLAN_BAD_STEP, never a TypeError', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        const payload = plan.steps[0]!.payload as Record<string, unknown>;
        // Only MongoDB's payload is a command document (collMod / createIndexes).
        if (typeof payload['command'] !== 'object') return expect(store.can.storeName).not.toBe('mongodb');
        const collection = plan.steps[0]!.collection;
        const commands = [
          ...['x', 5, true, null, [{ expireAfterSeconds: 1 }]].map((index) => ({ collMod: collection, index })),
          { collMod: collection, index: { keyPattern: 'createdAt', expireAfterSeconds: 3600 } },
          { collMod: { name: collection }, index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
          ...['x', 5, null, {}, ['x'], [null], [[{ expireAfterSeconds: 1 }]]].map((indexes) => ({
            createIndexes: collection,
            indexes,
          })),
          { createIndexes: collection, indexes: [{ key: 'createdAt', name: 'c', expireAfterSeconds: 3600 }] },
        ];
        for (const command of commands) {
          for (const consent of [{}, { allowRetroactive: true }]) {
            const tampered = edited(plan, () => ({ payload: { ...payload, command } }));
            expect([command, await refusal(() => v1.apply(tampered, consent))]).toEqual([
              command,
              { code: 'PLAN_BAD_STEP', cls: 'LifespanError', entity: 'Lease' },
            ]);
          }
        }
        await nothingWritten();
      });

      test('consent that is not an options object: BAD_ARGUMENT naming apply(), never a TypeError', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        for (const consent of [null, 5, 'yes', []]) {
          await expect(v1.apply(plan, consent as never)).rejects.toMatchObject({
            code: 'BAD_ARGUMENT',
            message: expect.stringContaining('apply()'),
          });
          expect(() => v1.checkPlan(plan, consent as never)).toThrow(
            expect.objectContaining({ code: 'BAD_ARGUMENT', message: expect.stringContaining('apply()') }),
          );
        }
        await nothingWritten();
      });

      test('a plan without a list of steps: BAD_ARGUMENT, never a TypeError', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        expect(await refusal(() => v1.apply({ ...plan, steps: 'all' as never }))).toEqual({
          code: 'BAD_ARGUMENT',
          cls: 'LifespanError',
        });
        await nothingWritten();
      });

      test('checkPlan() judges a plan as apply() does, touching nothing', async () => {
        expect(opened?.sibling).toBeDefined();
        const plan = await back();
        expect(await refusal(async () => v1.checkPlan({ ...plan, store: 'elsewhere' }))).toMatchObject({
          code: 'PLAN_WRONG_STORE',
        });
        expect(() => v2.checkPlan({ store: store.can.storeName, target: 'x', steps: [] })).not.toThrow();
        await nothingWritten();
      });
    });
  });
}
