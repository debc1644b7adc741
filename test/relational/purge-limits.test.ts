/**
 * purgeExpired at the size limits of a batch: a caller's cap large enough that one batch's
 * statement would pass the engine's own limits (MariaDB/MySQL: 65,535 placeholders per prepared
 * statement, one per key column per picked row).
 */
import type { Knex } from 'knex';
import { ModelBuilder, type StoreContext } from '../../src';
import { encodeInstant } from '../../src/providers/relational/codec';
import { connectRelational, describeEngines, dropTables, prefixFor, type RelationalEngine } from './support/engines';
import { knexFor } from '../harness/relational';

class Pair {
  a = '';
  b = '';
  owner = '';
}

/** Most placeholders one MariaDB/MySQL prepared statement takes. */
const MYSQL_PLACEHOLDERS = 65_535;
/** Enough due rows that a batch grown by doubling from 512 passes 32,768 picked keys (~65,536 placeholders). */
const DUE = 60_000;

/** DUE rows of Pair, due 1 ms apart from `from` on, in one statement. */
function seedSql(engine: RelationalEngine, table: string): string {
  const cols = `INSERT INTO ${table} (a, b, owner, expires_at)`;
  switch (engine) {
    case 'sqlite':
      return `${cols} WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${DUE}) SELECT 'a' || i, 'b' || i, 'o', ? + i FROM s`;
    case 'postgres':
      return `${cols} SELECT 'a' || i, 'b' || i, 'o', CAST(? AS timestamptz) + i * interval '1 millisecond' FROM generate_series(1, ${DUE}) AS i`;
    case 'mariadb':
      return `${cols} SELECT concat('a', seq), concat('b', seq), 'o', CAST(? AS DATETIME(3)) + INTERVAL seq * 1000 MICROSECOND FROM seq_1_to_${DUE}`;
  }
}

describeEngines('relational purgeExpired at the batch size limits', (engine) => {
  const table = `${prefixFor('purgelim')}_pairs`;
  const model = new ModelBuilder()
    .entity(Pair, (e) =>
      e
        .toCollection(table)
        .key((x) => x.a)
        .key((x) => x.b)
        .field((x) => x.owner)
        .timeToLive(10, { perWrite: true }),
    )
    .build();
  let knex: Knex;
  let db: StoreContext;

  beforeAll(async () => {
    knex = knexFor(engine);
    await dropTables(knex, model);
    db = await connectRelational(model, knex, { ttl: 'emulate' });
    await db.ensureCollections();
  });

  afterAll(async () => {
    await db?.close();
    await dropTables(knex, model);
    await knex?.destroy();
  });

  test('a cap of 40,000 rows on a two-column key purges everything due, each batch within the engine limits', async () => {
    const from = new Date(Date.UTC(2030, 0, 1));
    await knex.raw(seedSql(engine, table), [encodeInstant(engine, from) as Knex.RawBinding]);
    const rows: number[] = [];
    const result = await db.purgeExpired({
      now: new Date(from.getTime() + DUE + 1),
      batchSize: 40_000,
      batchBudgetMs: 10_000,
      onProgress: (_, batch) => rows.push(batch.rows),
    });
    expect(result.deleted).toBe(DUE);
    const [left] = await knex(table).count({ n: '*' });
    expect(Number(left?.['n'])).toBe(0);
    const biggest = Math.max(...rows);
    if (engine === 'mariadb') {
      // The batches grew to the largest power of two whose DELETE binds no more than 65,535 values.
      expect(biggest).toBe(16_384);
      expect(biggest * 2 + 1).toBeLessThanOrEqual(MYSQL_PLACEHOLDERS);
    } else {
      expect(biggest).toBeGreaterThan(16_384);
    }
  }, 120_000);
});
