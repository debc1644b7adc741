/**
 * MariaDB does not turn a row-value comparison into an index range; spelled out, with a leading
 * `k1 >=` that bounds it. Placeholders are `?` there, bound in the order they are written: each is
 * made where it is written.
 */
export function spelledOutAfter(columns: readonly string[], arg: (i: number) => string): string {
  const lead = `${columns[0]} >= ${arg(0)}`;
  const terms = columns.map((_, i) => {
    const equal = columns.slice(0, i).map((c, j) => `${c} = ${arg(j)}`);
    const greater = `${columns[i]} > ${arg(i)}`;
    return `(${[...equal, greater].join(' AND ')})`;
  });
  return `${lead} AND (${terms.join(' OR ')})`;
}
