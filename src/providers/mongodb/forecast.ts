import {
  boundsMs,
  forecastSpec,
  withForecast,
  DUE_INDEX,
  ForecastTally,
  NEVER_INDEX,
  noExpiryForecast,
  untimedNote,
  type EntityForecast,
  type ForecastSpec,
} from '../../core/forecast';
import type { Doc } from './commands';
import type { CollectionMapping } from './compile';
import { remainingMsExpression } from './expiry-expressions';
import type { MongoDbLike } from './gateway';
import type { MongoPlanStep } from './plan';
import { wrap } from './repository';
import { STORE } from './semantics';

/**
 * One aggregation per collection: every document's bucket index from the expiry expression the
 * TTL monitor applies (the indexed date, plus expireAfterSeconds for a date member), against the
 * server's $$NOW, grouped and counted. Exact. Due documents stay stored, and readable unless the
 * store hides them (hideExpired), until the TTL monitor deletes them (about every 60 s).
 */
export function forecastPipeline(mapping: CollectionMapping, spec: ForecastSpec): Doc[] {
  const rem = '$rem';
  const branches = [
    { case: { $eq: [rem, null] }, then: NEVER_INDEX },
    { case: { $lte: [rem, 0] }, then: DUE_INDEX },
    ...boundsMs(spec).map((b, i) => ({ case: { $lte: [rem, b] }, then: i + 1 })),
  ];
  return [
    { $project: { _id: 0, rem: remainingMsExpression(mapping.ttl) } },
    { $group: { _id: { $switch: { branches, default: spec.bucketSeconds.length + 1 } }, n: { $sum: 1 } } },
  ];
}

export async function forecastCollection(
  db: MongoDbLike,
  mapping: CollectionMapping,
  spec: ForecastSpec,
): Promise<EntityForecast> {
  const at = { entity: mapping.entity.name, collection: mapping.collection, store: STORE };
  if (mapping.ttl === null) {
    return noExpiryForecast(spec, at, untimedNote(mapping.entity.name));
  }
  let groups: Doc[];
  try {
    groups = await db
      .collection(mapping.collection)
      .aggregate(forecastPipeline(mapping, spec), { useBigInt64: true })
      .toArray();
  } catch (error) {
    throw wrap(error, mapping, 'expiryForecast');
  }
  const tally = new ForecastTally(spec);
  for (const group of groups) tally.addIndexed(Number(group['_id']), Number(group['n']));
  return tally.result(at, {
    method: 'aggregate',
    exact: true,
    cost: {
      roundTrips: 1,
      text: `one aggregation over the expiry expression (a collection scan of ${mapping.collection})`,
    },
    note: 'due documents stay stored until the TTL monitor deletes them (about every 60 s)',
  });
}

/**
 * plan({ counts: true }): a change of a date member's expireAfterSeconds with the forecast of the
 * stored documents under the live value and under the new one (two aggregations).
 */
export async function withForecastAround(
  db: MongoDbLike,
  mappings: readonly CollectionMapping[],
  steps: readonly MongoPlanStep[],
): Promise<MongoPlanStep[]> {
  const spec = forecastSpec(undefined, STORE);
  const out: MongoPlanStep[] = [];
  for (const step of steps) {
    const mapping = mappings.find((m) => m.entity.name === step.entity);
    const ttl = mapping?.ttl;
    const from = step.ttl?.from;
    const to = step.ttl?.to;
    if (!mapping || ttl?.kind !== 'date-member' || typeof from !== 'number' || typeof to !== 'number' || from === to) {
      out.push(step);
      continue;
    }
    const before = await forecastCollection(db, { ...mapping, ttl: { ...ttl, seconds: from } }, spec);
    const after = await forecastCollection(db, { ...mapping, ttl: { ...ttl, seconds: to } }, spec);
    out.push(withForecast(step, before, after));
  }
  return out;
}
