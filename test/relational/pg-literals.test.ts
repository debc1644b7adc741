/** Parameters written as literals for PostgreSQL's simple query protocol (the block walk's one-message batch). */
import { withLiterals } from '../../src/providers/relational/drivers/pg-literals';

describe('withLiterals', () => {
  test('writes each $n as the literal of its value, reusing a value as often as $n appears', () => {
    const sql =
      'DELETE FROM t WHERE ctid >= CAST($1 AS tid) AND ctid < CAST($2 AS tid) AND e <= $3 AND f <= $3 LIMIT $10';
    const params = ['(0,0)', '(64,0)', '2030-01-01T12:00:00.000Z', 4, 5, 6, 7, 8, 9, 10];
    expect(withLiterals(sql, params)).toBe(
      "DELETE FROM t WHERE ctid >= CAST('(0,0)' AS tid) AND ctid < CAST('(64,0)' AS tid) " +
        "AND e <= '2030-01-01T12:00:00.000Z' AND f <= '2030-01-01T12:00:00.000Z' LIMIT 10",
    );
  });

  test('leaves $n inside quoted identifiers and string literals alone', () => {
    const sql = `SELECT "a$1", 'b$1''$2', "c""$2" FROM "t$1" WHERE x = $1`;
    expect(withLiterals(sql, ['v'])).toBe(`SELECT "a$1", 'b$1''$2', "c""$2" FROM "t$1" WHERE x = 'v'`);
  });

  test('refuses a value whose literal could read differently (quotes, backslashes, non-text)', () => {
    for (const value of ["it's", 'a\\b', null, undefined, {}, Number.NaN, new Date(0)]) {
      expect(() => withLiterals('SELECT $1', [value])).toThrow(TypeError);
    }
  });
});
