/**
 * PostgreSQL block-walk purge batches skip the WAL flush at COMMIT (synchronous_commit off) only when
 * they judge by the database clock: then a crash can bring back only rows due by the server's own
 * clock, which reads hide. With a caller's `now` — possibly later than the server's clock, deleting
 * live rows — every batch must commit durably.
 */
import type { Knex } from 'knex';
import type { RelationalSession } from '../../src/providers/relational';
import { describeStore } from '../harness/stores';
import { dropTables, prefixFor, sharedDatabase, type SharedDatabase } from './support/engines';
import { Token, make, testModel } from './support/models';
import { openSession } from './support/sessions';

/** The driver's client class (pg ships no types): its `query` sees every statement the purge sends. */
interface PgClientClass {
  prototype: { query: (...args: unknown[]) => unknown };
}
const { Client } = require('pg') as { Client: PgClientClass };

/** Enough due rows for the block walk (it takes over from 4,096 due rows when no batchSize is set). */
const DUE = 5_000;

describeStore('postgres', 'relational PostgreSQL purge durability', () => {
  const model = testModel(prefixFor('durable'));
  let shared: SharedDatabase;
  let knex: Knex;
  let session: RelationalSession;
  const sent: string[] = [];
  const query = Client.prototype.query;

  beforeAll(async () => {
    shared = sharedDatabase('postgres');
    knex = shared.open();
    await dropTables(knex, model);
    session = await openSession(model, knex);
    await session.ensureCollections();
    // What the purge sends, as the server receives it.
    Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      sent.push(typeof first === 'string' ? first : String(first?.text ?? ''));
      return query.apply(this, args);
    };
  });

  afterAll(async () => {
    Client.prototype.query = query;
    await session?.close();
    await dropTables(knex, model);
    await knex?.destroy();
    shared?.cleanup();
  });

  async function seedDue(prefix: string): Promise<void> {
    for (let i = 0; i < DUE; i += 500) {
      const uow = session.unitOfWork();
      for (let j = i; j < i + 500; j++) uow.insert(make(Token, { id: `${prefix}${j}`, owner: 'o' }), { ttl: 1 });
      await uow.commit();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  }

  const asyncCommits = () => sent.filter((sql) => sql.includes("'synchronous_commit', 'off'")).length;

  test('on the database clock the batches commit without waiting for the WAL flush', async () => {
    await seedDue('db');
    sent.length = 0;
    const result = await session.purgeExpired();
    expect(result.deleted).toBe(DUE);
    expect(asyncCommits()).toBeGreaterThan(0);
  }, 60_000);

  test("with the caller's now every batch commits durably", async () => {
    await seedDue('given');
    sent.length = 0;
    const result = await session.purgeExpired({ now: new Date(Date.now() + 60_000) });
    expect(result.deleted).toBe(DUE);
    expect(sent.some((sql) => sql.includes('lock_timeout'))).toBe(true);
    expect(asyncCommits()).toBe(0);
  }, 60_000);
});
