import {
  ForecastTally,
  noExpiryForecast,
  untimedNote,
  type EntityForecast,
  type ForecastSpec,
} from '../../core/forecast';
import type { EntityMapping } from './compile';
import { qualified, quoteId } from './cql';
import type { Executor, Row } from './executor';
import { STORE } from './semantics';

/** Rows per page of the walk (the driver's fetchSize in Executor.all). */
const PAGE_ROWS = 1000;

/**
 * Cassandra has no aggregate over TTL(): a paged walk of `SELECT TTL(col) …` over the table,
 * stopped after `spec.cap` rows. A row lives as long as its longest-lived cell that holds a value
 * (the rule of repository.ttl()); a cell without a TTL makes the row never expire. Exact when the
 * walk read every row. Nothing is ever due but stored: Cassandra stops returning an expired cell
 * at once (compaction removes it later).
 */
export async function forecastTable(
  executor: Executor,
  keyspace: string,
  mapping: EntityMapping,
  spec: ForecastSpec,
): Promise<EntityForecast> {
  const at = { entity: mapping.entity.name, collection: mapping.table.name, store: STORE };
  if (!mapping.entity.ttl) return noExpiryForecast(spec, at, untimedNote(mapping.entity.name));
  if (mapping.isCounter) return noExpiryForecast(spec, at, 'a counter table: counters never expire');
  const columns = mapping.regular;
  if (columns.length === 0) {
    return noExpiryForecast(
      spec,
      at,
      'the table has only key columns, and Cassandra reports TTL() only for non-key cells: nothing can be read',
    );
  }
  const select = columns.flatMap((c, i) => [
    quoteId(c.column, 'column'),
    `TTL(${quoteId(c.column, 'column')}) AS "ttl_${i}"`,
  ]);
  const cql = `SELECT ${select.join(', ')} FROM ${qualified(keyspace, mapping.table.name)}`;
  const place = { entity: mapping.entity.name, store: STORE };
  const rows = await executor.all(cql, [], place, 'expiryForecast (TTL() walk)', spec.cap + 1);
  const exact = rows.length <= spec.cap;
  const read = rows.slice(0, spec.cap);
  const tally = new ForecastTally(spec);
  let unreadable = 0;
  for (const row of read) {
    const seconds = rowTtl(row, mapping);
    if (seconds === undefined) unreadable += 1;
    else tally.addRemaining(seconds === null ? null : seconds * 1000);
  }
  const unread =
    unreadable > 0
      ? `; ${unreadable} row(s) hold no non-key value, so their TTL() cannot be read, and are not counted`
      : '';
  return tally.result(at, {
    method: 'walk',
    exact,
    cost: {
      roundTrips: Math.max(1, Math.ceil(rows.length / PAGE_ROWS)),
      text: `a paged full-table read of TTL() (${rows.length} row(s), ${PAGE_ROWS} per page)`,
    },
    note: `Cassandra never returns an expired cell: none is due but stored${unread}`,
  });
}

/** Seconds the row lives (its longest-lived cell holding a value), null: never, undefined: unreadable. */
function rowTtl(row: Row, mapping: EntityMapping): number | null | undefined {
  let longest: number | undefined;
  for (const [i, c] of mapping.regular.entries()) {
    const value: unknown = row[c.column];
    if (value === null || value === undefined) continue;
    const ttl = row[`ttl_${i}`] as number | null;
    if (ttl === null) return null;
    longest = Math.max(longest ?? 0, Number(ttl));
  }
  return longest;
}
