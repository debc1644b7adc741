import {
  DUE_INDEX,
  ForecastTally,
  NEVER_INDEX,
  noExpiryForecast,
  untimedNote,
  type EntityForecast,
  type ForecastSpec,
} from '../../core/forecast';
import type { EntityAccess } from './context';
import { driverCall } from './driver-errors';
import { remainingSeconds, type ContainerTtl, type StoredExpiry } from './item-expiry';
import { entityQuery } from './query';
import { STORE, TTL_ON_NO_DEFAULT } from './semantics';

interface Range {
  /** Expiry instants after this (epoch seconds); none: from the beginning. */
  readonly after?: number;
  /** Expiry instants at or before this; none: without end. */
  readonly upTo?: number;
}

/**
 * Cosmos DB aggregates, but the protocol server lifespan is tested on has no GROUP BY (nor has the
 * service for every shape): one `SELECT VALUE COUNT(1)` per bucket, over the expiry instant
 * `_ts + ttl` (the item's own ttl, else the container's DefaultTimeToLive), with "now" from the
 * server clock. Exact. The service hides an expired item from queries at once, so there `due` is
 * 0; a server that does not enforce TTL (hideExpired) counts the due items it still holds.
 */
export async function forecastContainer(
  access: EntityAccess,
  containerTtl: ContainerTtl,
  nowSeconds: number,
  spec: ForecastSpec,
): Promise<EntityForecast> {
  if (!access.entity.ttl) {
    const at = { entity: access.entity.name, collection: access.container.id, store: STORE };
    return noExpiryForecast(spec, at, untimedNote(access.entity.name));
  }
  const ranges: Array<{ index: number; sql: string | null }> = [{ index: NEVER_INDEX, sql: neverSql(containerTtl) }];
  const bounds = [nowSeconds, ...spec.bucketSeconds.map((s) => nowSeconds + s)];
  ranges.push({ index: DUE_INDEX, sql: expiresSql(containerTtl, { upTo: nowSeconds }) });
  for (let i = 1; i < bounds.length; i++) {
    ranges.push({
      index: i,
      sql: expiresSql(containerTtl, { after: bounds[i - 1] as number, upTo: bounds[i] as number }),
    });
  }
  ranges.push({ index: bounds.length, sql: expiresSql(containerTtl, { after: bounds[bounds.length - 1] as number }) });
  const tally = new ForecastTally(spec);
  let requestUnits = 0;
  let roundTrips = 0;
  for (const range of ranges) {
    if (range.sql === null) continue;
    const { count, charge } = await countWhere(access, range.sql);
    roundTrips += 1;
    requestUnits += charge;
    tally.addIndexed(range.index, count);
  }
  return tally.result(
    { entity: access.entity.name, collection: access.container.id, store: STORE },
    {
      method: 'aggregate',
      exact: true,
      cost: {
        roundTrips,
        requestUnits,
        text: `${roundTrips} COUNT queries over _ts + ttl (cross-partition; the protocol server and the service have no GROUP BY over an expression)`,
      },
      note: 'Cosmos DB hides an expired item from queries at once: on the service none is due but stored',
    },
  );
}

/** Items that never expire: TTL off on the container, an item ttl of -1, or no ttl under a default of -1. */
function neverSql(containerTtl: ContainerTtl): string {
  if (containerTtl === null) return 'true';
  const own = '(IS_NUMBER(c.ttl) AND c.ttl = -1)';
  return containerTtl === TTL_ON_NO_DEFAULT ? `(${own} OR NOT IS_DEFINED(c.ttl))` : own;
}

/** Items whose expiry instant falls in the range (null: none can, TTL being off). Values are whole numbers. */
function expiresSql(containerTtl: ContainerTtl, range: Range): string | null {
  if (containerTtl === null) return null;
  const within = (instant: string, shift: number) =>
    [
      range.after === undefined ? null : `${instant} > ${range.after - shift}`,
      range.upTo === undefined ? null : `${instant} <= ${range.upTo - shift}`,
    ].filter((part): part is string => part !== null);
  const own = `(${['IS_NUMBER(c.ttl)', 'c.ttl > 0', ...within('c._ts + c.ttl', 0)].join(' AND ')})`;
  if (containerTtl === TTL_ON_NO_DEFAULT) return own;
  const byDefault = `(${['NOT IS_DEFINED(c.ttl)', ...within('c._ts', containerTtl)].join(' AND ')})`;
  return `(${own} OR ${byDefault})`;
}

async function countWhere(access: EntityAccess, condition: string): Promise<{ count: number; charge: number }> {
  const base = entityQuery(access.codec, {}, { count: true });
  const query = `${base.query}${base.query.includes(' WHERE ') ? ' AND ' : ' WHERE '}${condition}`;
  const response = await driverCall(`forecasting ${access.entity.name}`, { entity: access.entity.name }, () =>
    access.container.items.query<number>({ query, parameters: base.parameters ?? [] }).fetchAll(),
  );
  return {
    count: response.resources.reduce((sum, n) => sum + n, 0),
    charge: Number(response.requestCharge ?? 0),
  };
}

/**
 * plan({ counts: true }): the forecast of an entity's items under two DefaultTimeToLive values
 * (before and after a step) from one read of every item's `_ts` and `ttl`, bucketed here with the
 * service's arithmetic (item-expiry.ts): one query rather than a COUNT per bucket per setting.
 */
export async function forecastAround(
  access: EntityAccess,
  settings: { readonly from: ContainerTtl; readonly to: ContainerTtl },
  nowSeconds: number,
  spec: ForecastSpec,
): Promise<{ before: EntityForecast; after: EntityForecast }> {
  const base = entityQuery(access.codec, {}, {});
  const query = base.query.replace(/^SELECT\s+\*/, 'SELECT c._ts, c.ttl');
  const response = await driverCall(`forecasting ${access.entity.name}`, { entity: access.entity.name }, () =>
    access.container.items.query<StoredExpiry>({ query, parameters: base.parameters ?? [] }).fetchAll(),
  );
  const at = { entity: access.entity.name, collection: access.container.id, store: STORE };
  const cost = {
    roundTrips: 1,
    requestUnits: Number(response.requestCharge ?? 0),
    text: 'one query reading _ts and ttl of every item, bucketed under both settings',
  };
  const tally = (setting: ContainerTtl) => {
    const t = new ForecastTally(spec);
    for (const item of response.resources) {
      const left = remainingSeconds(item, setting, nowSeconds);
      t.addRemaining(left === null ? null : left * 1000);
    }
    return t.result(at, { method: 'aggregate', exact: true, cost });
  };
  return { before: tally(settings.from), after: tally(settings.to) };
}
