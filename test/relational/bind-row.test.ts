import { bindRow, SqlWriter } from '../../src/providers/relational/table/statement';

/** Issue 29: an insert binds the row's encoded columns as its parameters, with no copy per row. */
describe('bindRow', () => {
  function statement(dialect: 'sqlite' | 'postgres', tail: 'seconds' | 'expiry') {
    const w = new SqlWriter(dialect);
    const cols = [0, 1, 2].map((index) => w.param({ kind: 'col', index }));
    return w.finish(`INSERT INTO t VALUES (${cols.join(', ')}, ${w.param({ kind: tail })})`, 'T', false, false);
  }

  it.each(['sqlite', 'postgres'] as const)('%s: takes the row array itself and appends the seconds', (dialect) => {
    const cols: unknown[] = ['a', 'b', 3];
    const params = bindRow(statement(dialect, 'seconds'), cols, { cols, seconds: 3600 });
    expect(params).toBe(cols);
    expect(params).toEqual(['a', 'b', 3, 3600]);
  });

  it('binds a fresh array when the statement does not start with every column in order', () => {
    const w = new SqlWriter('sqlite');
    const sql = `DELETE FROM t WHERE id = ${w.param({ kind: 'col', index: 1 })}`;
    const cols: unknown[] = ['a', 'b'];
    const params = bindRow(w.finish(sql, 'T', false, false), cols, { cols });
    expect(params).not.toBe(cols);
    expect(params).toEqual(['b']);
    expect(cols).toEqual(['a', 'b']);
  });
});
