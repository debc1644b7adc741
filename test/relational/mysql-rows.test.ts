/** mysql2 rows (objects keyed by column name, or arrays) read as arrays in select-list order. */
import { LifespanError } from '../../src';
import { rowsInSelectOrder } from '../../src/providers/relational/drivers/mysql-rows';

const fields = (...names: string[]) => names.map((name) => ({ name }));

describe('rowsInSelectOrder', () => {
  test('columns named by position are read by position', () => {
    const rows = [{ 0: 'a', 1: 2, 2: null }];
    expect(rowsInSelectOrder(rows, fields('0', '1', '2'))).toEqual([['a', 2, null]]);
  });

  test('one column is read by the name mysql2 reports', () => {
    expect(rowsInSelectOrder([{ 'count(*)': 3 }, { 'count(*)': 4 }], fields('count(*)'))).toEqual([[3], [4]]);
  });

  test('rows that are already arrays pass through', () => {
    const rows = [['x', 'y']];
    expect(rowsInSelectOrder(rows, fields('0', '1'))).toBe(rows);
  });

  test.each([
    ['two columns of one name (they share one key of the row object)', fields('v', 'v'), [{ v: 'second' }]],
    ['named columns', fields('id', 'owner'), [{ id: 'a', owner: 'b' }]],
    ['positions out of order', fields('1', '0'), [{ 0: 'a', 1: 'b' }]],
    ['rows already arrays (a connection with rowsAsArray)', fields('id', 'owner'), [['a', 'b']]],
    ['an empty result', fields('id', 'owner'), []],
  ])('a wider read not named by position is an internal error, never a guess: %s', (_label, named, rows) => {
    let thrown: unknown;
    try {
      rowsInSelectOrder(rows, named, 'Token');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LifespanError);
    expect(thrown).toMatchObject({ code: 'RELATIONAL_INTERNAL', entity: 'Token', store: 'relational' });
  });
});
