/**
 * SqliteExecutor.transaction (no SQLite purge path uses it today; the Executor contract has it):
 * it commits what `fn` did, rolls all of it back when `fn` throws, passes `fn`'s own error through
 * and wraps the driver's; the application's knex queries wait for it rather than join it.
 */
import knexLib, { type Knex } from 'knex';
import { SqliteExecutor } from '../../src/providers/relational/drivers/sqlite-executor';
import type { Statement } from '../../src/providers/relational/table/statement';

function statement(sql: string, reads: boolean): Statement {
  return { sql, reads, bigints: false, entity: 'T', name: sql, slots: [] } as unknown as Statement;
}

describe('SqliteExecutor.transaction', () => {
  let knex: Knex;
  let executor: SqliteExecutor;
  const insert = (id: number) => statement(`INSERT INTO t (id) VALUES (${id})`, false);
  const count = statement('SELECT count(*) FROM t', true);

  beforeAll(async () => {
    knex = knexLib({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    executor = await SqliteExecutor.open(knex);
    executor.connection.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
  });
  afterAll(async () => {
    executor.close();
    await knex.destroy();
  });

  test('commits when fn resolves, and answers its result', async () => {
    const result = await executor.transaction(
      async (tx) => (await tx.run(insert(1), [])) + (await tx.run(insert(2), [])),
    );
    expect(result).toBe(2);
    expect(await executor.rows(count, [])).toEqual([[2]]);
  });

  test("rolls back everything when fn throws, and passes fn's own error through", async () => {
    const own = new Error('not a driver error');
    const failing = executor.transaction(async (tx) => {
      await tx.run(insert(3), []);
      throw own;
    });
    await expect(failing).rejects.toBe(own);
    expect(await executor.rows(count, [])).toEqual([[2]]);
  });

  test('a driver error is a StoreError with the cause kept, and rolls back', async () => {
    const failing = executor.transaction(async (tx) => {
      await tx.run(insert(4), []);
      await tx.run(statement('INSERT INTO missing (id) VALUES (1)', false), []);
    });
    await expect(failing).rejects.toMatchObject({ code: 'STORE_OPERATION_FAILED', cause: expect.anything() });
    expect(await executor.rows(count, [])).toEqual([[2]]);
  });

  test('a knex query sent while fn awaits waits for the transaction to end: it is not rolled back with it', async () => {
    let knexWrite: Promise<unknown> = Promise.resolve();
    const failing = executor.transaction(async (tx) => {
      await tx.run(insert(5), []);
      // then() sends it: a knex builder runs only once awaited.
      knexWrite = knex('t')
        .insert({ id: 6 })
        .then(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    await knexWrite;
    expect(await executor.rows(statement('SELECT id FROM t WHERE id > 4 ORDER BY id', true), [])).toEqual([[6]]);
  });
});
