import {
  boundsMs,
  DUE_INDEX,
  ForecastTally,
  NEVER_INDEX,
  noExpiryForecast,
  untimedNote,
  type EntityForecast,
  type ForecastSpec,
} from '../../../core/forecast';
import type { EntityTable } from '../table/entity-table';
import type { SchemaRunner } from '../drivers/schema-runner';
import { RELATIONAL_STORE, type RelationalTtlMode } from '../options';

/**
 * The forecast of one table in one query: every row's bucket index computed from expires_at
 * against the clock the table's reads use (the database clock, or the injected one), then
 * GROUP BY that index. Exact; a full scan of the table (the expiry index does not help a count of
 * every row).
 */
export function forecastSql(t: EntityTable, expiryColumn: string, spec: ForecastSpec): string {
  const now = t.nowMode === 'db' ? t.expiry.dbNow : t.expiry.nowParam('?');
  const column = t.q(expiryColumn);
  const bounds = boundsMs(spec);
  // Bounds are checked whole numbers of milliseconds: written as literals, so "now" is the one binding.
  const cases = [
    `WHEN ex IS NULL THEN ${NEVER_INDEX}`,
    `WHEN rem <= 0 THEN ${DUE_INDEX}`,
    ...bounds.map((b, i) => `WHEN rem <= ${b} THEN ${i + 1}`),
  ].join(' ');
  const inner = `SELECT ${column} AS ex, ${t.expiry.remainingMs(column, now)} AS rem FROM ${t.table}`;
  return (
    `SELECT bucket, COUNT(*) AS n FROM ` +
    `(SELECT CASE ${cases} ELSE ${bounds.length + 1} END AS bucket FROM (${inner}) r) b GROUP BY bucket`
  );
}

export async function forecastTable(
  t: EntityTable,
  runner: SchemaRunner,
  mode: RelationalTtlMode,
  spec: ForecastSpec,
): Promise<EntityForecast> {
  const at = { entity: t.entity.name, collection: t.spec.table, store: RELATIONAL_STORE };
  if (!t.expiryColumn) return noExpiryForecast(spec, at, noExpiryNote(t, mode));
  const sql = forecastSql(t, t.expiryColumn, spec);
  const rows = await runner.rows(sql, t.nowMode === 'db' ? [] : [t.nowParam()]);
  const tally = new ForecastTally(spec);
  for (const row of rows) tally.addIndexed(Number(row['bucket']), Number(row['n']));
  return tally.result(at, {
    method: 'aggregate',
    exact: true,
    cost: { roundTrips: 1, text: `one GROUP BY query over ${t.expiryColumn} (a full scan of ${t.spec.table})` },
    note: 'due rows stay stored until purgeExpired() deletes them; every read already leaves them out',
  });
}

function noExpiryNote(t: EntityTable, mode: RelationalTtlMode): string {
  if (!t.entity.ttl) return untimedNote(t.entity.name);
  return mode === 'emulate'
    ? `${t.entity.name} has no expiry on this table`
    : `TTL is ignored on the relational store (ttl: '${mode}'): rows never expire; create the store with ttl: 'emulate' to keep expires_at`;
}
