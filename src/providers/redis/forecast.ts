import {
  ForecastTally,
  noExpiryForecast,
  untimedNote,
  type EntityForecast,
  type ForecastSpec,
} from '../../core/forecast';
import type { KeyspaceMapping } from './compile';
import { call, type RedisClientLike } from './gateway';
import { scanPattern } from './keys';
import { scanKeys, walkedNodes } from './scan';
import { STORE } from './semantics';
import { indexLayout } from './collection-index';
import { indexReadText, walkIndex } from './index-reads';
import { forgetIndexed, isIndexed } from './index-marker';

/**
 * From the collection index when it is complete: its live members a page at a time (on a cluster
 * per primary over its slots' indexes), each member's key checked in the same script (PEXPIRETIME:
 * a key deleted or evicted outside lifespan is not counted, an expiry changed outside lifespan is
 * counted as it is now), so the forecast is exact and costs what the collection holds, never the
 * database. Without a complete index (records of an older version not yet backfilled by a
 * find()/count()), the SCAN walk below, saying so.
 */
export async function forecastKeyspace(
  client: RedisClientLike,
  prefix: string,
  mapping: KeyspaceMapping,
  spec: ForecastSpec,
): Promise<EntityForecast> {
  const at = { entity: mapping.entity.name, collection: mapping.collection, store: STORE };
  if (!mapping.entity.ttl) return noExpiryForecast(spec, at, untimedNote(mapping.entity.name));
  const layout = indexLayout(client, prefix);
  const place = {
    entity: mapping.entity.name,
    operation: `expiryForecast (collection index) on '${mapping.collection}'`,
  };
  const marker = await isIndexed(client, layout, mapping, place);
  if (!marker.indexed) return forecastByScan(client, prefix, mapping, spec);
  const tally = new ForecastTally(spec);
  const cost = await walkIndex(client, layout, mapping, 'expiry', place, (page) => {
    for (const [, expiry] of page.entries) {
      const ms = Number(expiry);
      tally.addRemaining(ms === -1 ? null : Math.max(0, ms - page.now));
    }
    return true;
  });
  if (cost.lost) {
    forgetIndexed(client, layout, mapping);
    return forecastByScan(client, prefix, mapping, spec);
  }
  return tally.result(at, {
    method: 'aggregate',
    exact: true,
    cost: {
      roundTrips: cost.scripts + marker.roundTrips,
      text: `${indexReadText(cost, layout)} (PEXPIRETIME)`,
    },
    note: 'Redis never returns an expired key: none is due but stored',
  });
}

/**
 * Without the index Redis has no aggregate over expiry: a SCAN walk of the entity's keys (on a cluster every primary
 * in turn, as scanKeys walks) with one PTTL per key (sent together per SCAN step, so node-redis
 * pipelines them), stopped after `spec.cap` keys. Exact when
 * the walk reached the end of the keyspace; a key added or removed during the walk may or may not
 * be seen (SCAN's guarantee). Nothing is ever due but stored: Redis never returns an expired key.
 */
async function forecastByScan(
  client: RedisClientLike,
  prefix: string,
  mapping: KeyspaceMapping,
  spec: ForecastSpec,
): Promise<EntityForecast> {
  const at = { entity: mapping.entity.name, collection: mapping.collection, store: STORE };
  const tally = new ForecastTally(spec);
  const place = { entity: mapping.entity.name, operation: `expiryForecast (SCAN + PTTL) on '${mapping.collection}'` };
  let batches = 0;
  let leftOut = false;
  const walk = await scanKeys(client, scanPattern(prefix, mapping, {}), place, async (keys) => {
    const room = spec.cap - tally.read;
    const taken = keys.slice(0, room);
    batches += 1;
    const lives = await Promise.all(taken.map((key) => call<number>(client, ['PTTL', key], place)));
    for (const ms of lives.map(Number)) {
      // -2: the key expired or was deleted between SCAN and PTTL; it is no longer stored.
      if (ms === -2) continue;
      tally.addRemaining(ms === -1 ? null : ms);
    }
    leftOut = taken.length < keys.length;
    return !leftOut && tally.read < spec.cap;
  });
  // A walk that stopped at the cap with keys left (in this step or in SCAN steps not taken) is a sample.
  const exact = walk.complete && !leftOut;
  return tally.result(at, {
    method: 'walk',
    exact,
    cost: {
      roundTrips: walk.calls + batches,
      text: `no complete collection index yet (a find() or count() builds it): SCAN walked the keyspace in ${walk.calls} call(s)${walkedNodes(walk, client)} (COUNT per call); one PTTL per key, pipelined per step`,
    },
    note: 'Redis never returns an expired key: none is due but stored',
  });
}
