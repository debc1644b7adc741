/**
 * purgeExpired against other transactions at the same time: a due row another transaction holds
 * locked (PostgreSQL, MariaDB), and units of work renewing due rows while purges run (every
 * engine). The purge must neither wait on the lock nor fail, no deadlock may reach either side,
 * and no renewed row may be deleted.
 */
import type { Knex } from 'knex';
import type { PurgeOptions } from '../../src/providers/contract';
import type { RelationalSession } from '../../src/providers/relational';
import { encodeInstant } from '../../src/providers/relational/codec';
import {
  describeEngines,
  dropTables,
  prefixFor,
  sharedDatabase,
  TestClock,
  type RelationalEngine,
  type SharedDatabase,
} from './support/engines';
import { Token, make, testModel } from './support/models';
import { openSession } from './support/sessions';

const LOCK_FREE_WITHIN_MS = 8_000;

async function idsIn(knex: Knex, table: string): Promise<Set<string>> {
  return new Set((await knex(table).select('id')).map((r: { id: string }) => r.id));
}

/** Inserts `count` rows `${prefix}${i}` that are due once the clock has moved on 2 s. */
async function seedDue(session: RelationalSession, prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  for (let i = 0; i < ids.length; i += 500) {
    const uow = session.unitOfWork();
    for (const id of ids.slice(i, i + 500)) uow.insert(make(Token, { id, owner: 'o' }), { ttl: 1 });
    await uow.commit();
  }
  return ids;
}

function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

interface RaceOutcome {
  readonly renewed: Set<string>;
  readonly failures: string[];
  commits: number;
  purges: number;
}

/**
 * Each writer commits `units` units of work renewing 10 of its rows (random order, as a request
 * handler touching several sessions would) while purges with `options` run back to back until the
 * writers are done. Errors on either side are collected, not thrown.
 */
async function raceRenewals(
  purger: RelationalSession,
  options: PurgeOptions,
  writers: readonly { session: RelationalSession; ids: readonly string[] }[],
  renewal: { units: number; ttl: number; owner: string },
): Promise<RaceOutcome> {
  const out: RaceOutcome = { renewed: new Set(), failures: [], commits: 0, purges: 0 };
  let writing = true;
  const purging = (async () => {
    while (writing) {
      try {
        await purger.purgeExpired(options);
        out.purges += 1;
      } catch (error) {
        out.failures.push(`purge: ${(error as Error).message}`);
      }
    }
  })();
  try {
    await Promise.all(
      writers.map(async ({ session, ids }) => {
        for (let unit = 0; unit < renewal.units; unit++) {
          const pick = shuffled(ids).slice(0, 10);
          const uow = session.unitOfWork();
          for (const id of pick) uow.upsert(make(Token, { id, owner: renewal.owner }), { ttl: renewal.ttl });
          try {
            await uow.commit();
            out.commits += 1;
            for (const id of pick) out.renewed.add(id);
          } catch (error) {
            out.failures.push(`commit: ${(error as Error).message}`);
          }
        }
      }),
    );
  } finally {
    writing = false;
    await purging;
  }
  return out;
}

describeEngines('purgeExpired with concurrent transactions', (engine: RelationalEngine) => {
  const model = testModel(prefixFor('purgecc'));
  const tokens = model.entities.find((e) => e.target === Token)?.collection as string;
  const clock = new TestClock();
  let shared: SharedDatabase;
  let knex: Knex;
  let purger: RelationalSession;

  beforeAll(async () => {
    shared = sharedDatabase(engine);
    knex = shared.open();
    await dropTables(knex, model);
    purger = await openSession(model, knex, clock);
    await purger.ensureCollections();
  });

  afterAll(async () => {
    await purger?.close();
    await dropTables(knex, model);
    await knex?.destroy();
    shared?.cleanup();
  });

  beforeEach(async () => {
    await knex(tokens).delete();
  });

  const lockable = engine === 'sqlite' ? test.skip : test;
  // Two sizes on PostgreSQL: with a batchSize it walks the expiry index; with none and thousands
  // due it walks the heap in block ranges. MariaDB takes the same path for both.
  // A long batch budget must not lengthen the wait on a locked row past deadlock_timeout (1 s):
  // the block walk bounds it by half of that, and the test's bound (8 s) is below the budget (10 s).
  const lockCases: [string, { batchSize?: number; batchBudgetMs?: number }, number][] = [
    ['small batches', { batchSize: 3 }, 12],
    ['no cap, thousands due', {}, 5_000],
    ['no cap, thousands due, a 10 s batch budget', { batchBudgetMs: 10_000 }, 5_000],
  ];
  lockable.each(lockCases)(
    'a due row another transaction holds locked is passed over, not waited on (%s)',
    async (_label, options, count) => {
      const ids = await seedDue(purger, 'd', count);
      clock.advance(2);
      const locked = ids[Math.floor(count / 2)] as string;
      const holderKnex = shared.open();
      const trx = await holderKnex.transaction();
      try {
        await trx(tokens).where({ id: locked }).forUpdate().select('id');
        const result = await within(
          LOCK_FREE_WITHIN_MS,
          'a purge next to a locked due row',
          purger.purgeExpired(options),
        );
        expect(result.deleted).toBe(count - 1);
        expect(result.skipped).toBe(1);
        expect([...(await idsIn(knex, tokens))]).toEqual([locked]);
        // The holder renews the row and commits: it is no longer due, and stays.
        const future = encodeInstant(engine, new Date(clock.nowMs + 60_000));
        await trx(tokens).where({ id: locked }).update({ owner: 'renewed', expires_at: future });
        await trx.commit();
      } finally {
        if (!trx.isCompleted()) await trx.rollback();
        await holderKnex.destroy();
      }
      expect(await purger.purgeExpired(options)).toMatchObject({ deleted: 0, skipped: 0 });
      expect((await purger.repository(Token).get(locked))?.owner).toBe('renewed');
    },
  );

  lockable('a locked due row that its holder leaves due is purged by the next run', async () => {
    const ids = await seedDue(purger, 'k', 6);
    clock.advance(2);
    const holderKnex = shared.open();
    const trx = await holderKnex.transaction();
    try {
      await trx(tokens).where({ id: 'k2' }).forUpdate().select('id');
      const held = await within(LOCK_FREE_WITHIN_MS, 'the purge', purger.purgeExpired({ batchSize: 2 }));
      expect(held).toMatchObject({ deleted: 5, skipped: 1 });
      await trx.commit();
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await holderKnex.destroy();
    }
    expect(ids).toContain('k2');
    expect(await purger.purgeExpired()).toMatchObject({ deleted: 1, skipped: 0 });
    expect((await idsIn(knex, tokens)).size).toBe(0);
  });

  const rounds = engine === 'mariadb' ? 10 : 3;
  test(`purges racing units of work that renew due rows: ${rounds} rounds, no error on either side, no renewed row deleted`, async () => {
    const writerKnexes = [shared.open(), shared.open()];
    const writers = await Promise.all(writerKnexes.map((k) => openSession(model, k, clock)));
    let commits = 0;
    let purges = 0;
    try {
      for (let round = 0; round < rounds; round++) {
        await knex(tokens).delete();
        const ids = await seedDue(purger, `r${round}_`, 400);
        clock.advance(2);
        // Each writer its own rows: writers never wait on each other, only on the purge.
        const mine = writers.map((session, w) => ({ session, ids: ids.filter((_, i) => i % writers.length === w) }));
        const race = await raceRenewals(purger, { batchSize: 40 }, mine, {
          units: 25,
          ttl: 60,
          owner: `renewed${round}`,
        });
        commits += race.commits;
        purges += race.purges;
        expect(race.failures).toEqual([]);
        const left = await idsIn(knex, tokens);
        const lost = [...race.renewed].filter((id) => !left.has(id));
        expect(lost).toEqual([]);
        // What is left after a final purge is exactly the renewed rows.
        await purger.purgeExpired();
        expect([...(await idsIn(knex, tokens))].sort()).toEqual([...race.renewed].sort());
      }
      expect(commits).toBe(rounds * 50);
      expect(purges).toBeGreaterThanOrEqual(rounds);
    } finally {
      await Promise.all(writers.map((w) => w.close()));
      await Promise.all(writerKnexes.map((k) => k.destroy()));
    }
  }, 120_000);
});

describeEngines('purgeExpired on the database clock racing renewals, no cap', (engine: RelationalEngine) => {
  const model = testModel(prefixFor('purgedb'));
  const tokens = model.entities.find((e) => e.target === Token)?.collection as string;
  let shared: SharedDatabase;
  let knex: Knex;
  let purger: RelationalSession;

  beforeAll(async () => {
    shared = sharedDatabase(engine);
    knex = shared.open();
    await dropTables(knex, model);
    purger = await openSession(model, knex);
    await purger.ensureCollections();
  });

  afterAll(async () => {
    await purger?.close();
    await dropTables(knex, model);
    await knex?.destroy();
    shared?.cleanup();
  });

  // 5,000 due rows and no batchSize: PostgreSQL walks the heap in block ranges (the index walk
  // below 4,096 due rows), so the race covers the block walk's lock_timeout and skip paths.
  test('purges with no cap racing renewals: no error on either side, no renewed row deleted', async () => {
    const ids = await seedDue(purger, 'b', 5_000);
    await new Promise((r) => setTimeout(r, 1_100));
    const writerKnex = shared.open();
    const writer = await openSession(model, writerKnex);
    try {
      const race = await raceRenewals(purger, {}, [{ session: writer, ids }], {
        units: 20,
        ttl: 600,
        owner: 'renewed',
      });
      expect(race.failures).toEqual([]);
      await purger.purgeExpired();
      const left = await idsIn(knex, tokens);
      // A renewal of a row a purge already took re-inserts it (upsert): every renewed row is there.
      expect([...race.renewed].filter((id) => !left.has(id))).toEqual([]);
      expect([...left].sort()).toEqual([...race.renewed].sort());
    } finally {
      await writer.close();
      await writerKnex.destroy();
    }
  }, 120_000);
});
