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

/**
 * Redis has no aggregate over expiry: a SCAN walk of the entity's keys (on a cluster every primary
 * in turn, as scanKeys walks) with one PTTL per key (sent together per SCAN step, so node-redis
 * pipelines them), stopped after `spec.cap` keys. Exact when
 * the walk reached the end of the keyspace; a key added or removed during the walk may or may not
 * be seen (SCAN's guarantee). Nothing is ever due but stored: Redis never returns an expired key.
 */
export async function forecastKeyspace(
  client: RedisClientLike,
  prefix: string,
  mapping: KeyspaceMapping,
  spec: ForecastSpec,
): Promise<EntityForecast> {
  const at = { entity: mapping.entity.name, collection: mapping.collection, store: STORE };
  if (!mapping.entity.ttl) return noExpiryForecast(spec, at, untimedNote(mapping.entity.name));
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
      text: `SCAN walked the keyspace in ${walk.calls} call(s)${walkedNodes(walk, client)} (COUNT per call); one PTTL per key, pipelined per step`,
    },
    note: 'Redis never returns an expired key: none is due but stored',
  });
}
