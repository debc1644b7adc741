/** Parameters written as literals for PostgreSQL's simple query protocol (the block walk's one-message batch). */
import { LifespanError } from '../../src';
import type { Knex } from 'knex';
import { withLiterals } from '../../src/providers/relational/drivers/pg-literals';
import { PgExecutor } from '../../src/providers/relational/drivers/pg-executor';
import type { Statement } from '../../src/providers/relational/table/statement';

/** The error withLiterals raises, or a failure when it raises none. */
function refusal(sql: string, params: readonly unknown[]): LifespanError {
  try {
    withLiterals(sql, params, 'Lease');
  } catch (error) {
    expect(error).toBeInstanceOf(LifespanError);
    return error as LifespanError;
  }
  throw new Error(`withLiterals wrote ${sql} without refusing`);
}

describe('withLiterals', () => {
  test('writes each $n as the literal of its value, reusing a value as often as $n appears', () => {
    const sql =
      'DELETE FROM t WHERE ctid >= CAST($1 AS tid) AND ctid < CAST($2 AS tid) AND e <= $3 AND f <= $3 LIMIT $10';
    const params = ['(0,0)', '(64,0)', '2030-01-01T12:00:00.000Z', 4, 5, 6, 7, 8, 9, 10];
    expect(withLiterals(sql, params)).toBe(
      "DELETE FROM t WHERE ctid >= CAST('(0,0)' AS tid) AND ctid < CAST('(64,0)' AS tid) " +
        "AND e <= '2030-01-01T12:00:00.000Z' AND f <= '2030-01-01T12:00:00.000Z' LIMIT (10)",
    );
  });

  test('leaves $n inside quoted identifiers and string literals alone', () => {
    const sql = `SELECT "a$1", 'b$1''$2', "c""$2" FROM "t$1" WHERE x = $1`;
    expect(withLiterals(sql, ['v'])).toBe(`SELECT "a$1", 'b$1''$2', "c""$2" FROM "t$1" WHERE x = 'v'`);
  });

  test('a negative number after a minus stays a number, not a comment', () => {
    expect(withLiterals('SELECT x -$1 FROM t', [-5])).toBe('SELECT x -(-5) FROM t');
    expect(withLiterals('SELECT x -$1, $2', [-0.5, 1e21])).toBe('SELECT x -(-0.5), (1e+21)');
  });

  test.each([
    ['a quote', "it's"],
    ['a backslash', 'a\\b'],
    ['a comment opener', '1 /* x'],
    ['a semicolon', '1; DROP TABLE t'],
    ['a dollar sign', 'a$b'],
    ['a NUL', 'a\u0000b'],
    ['a line break', 'a\nb'],
    ['null', null],
    ['undefined (no parameter)', undefined],
    ['an object', {}],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a bigint', 5n],
    ['a Date', new Date(0)],
    ['a Buffer', Buffer.from('x')],
  ])('refuses a value that is not a finite number or plain text (%s), without showing it', (_label, value) => {
    const error = refusal('SELECT $1', [value]);
    expect(error).toMatchObject({ code: 'RELATIONAL_INTERNAL', entity: 'Lease', store: 'relational' });
    expect(error.message).toContain('$1');
    if (typeof value === 'string') expect(error.message).not.toContain(value);
  });

  test.each([
    ['a line comment', 'SELECT $1 -- the $2 here is commented out\n, $2'],
    ['a block comment', 'SELECT /* $2 */ $1'],
    ['an E string', "SELECT E'\\' $2 ', $1"],
    ['a dollar-quoted string', 'SELECT $$ $2 $$, $1'],
    ['a tagged dollar quote', 'SELECT $q$ $2 $q$, $1'],
    ['a name with a dollar sign', 'SELECT foo$1 FROM t WHERE x = $1'],
  ])('refuses a statement whose placeholders it cannot tell apart (%s)', (_label, sql) => {
    expect(refusal(sql, [1, 2])).toMatchObject({ code: 'RELATIONAL_INTERNAL', entity: 'Lease' });
  });
});

describe('PostgreSQL runInTransaction', () => {
  test('refuses a parameter that cannot be a literal before it borrows a connection (no BEGIN, no ROLLBACK)', async () => {
    const pool = { acquireConnection: jest.fn(), releaseConnection: jest.fn() };
    const executor = new PgExecutor({ client: pool } as unknown as Knex);
    const statement: Statement = {
      name: 'ls_test',
      sql: 'DELETE FROM t WHERE e <= $1',
      slots: [],
      reads: false,
      bigints: false,
      keyOnly: false,
      entity: 'Lease',
    };
    await expect(executor.runInTransaction(['BEGIN'], statement, ["it's"])).rejects.toMatchObject({
      code: 'RELATIONAL_INTERNAL',
    });
    expect(pool.acquireConnection).not.toHaveBeenCalled();
  });
});
