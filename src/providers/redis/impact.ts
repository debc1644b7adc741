import { call, type CallPlace, type RedisClientLike } from './gateway';
import { scanPattern } from './keys';
import type { KeyspaceMapping } from './compile';
import type { RedisStep } from './plan';
import { scanKeys, walkedNodes } from './scan';
import { COUNT_SCAN_BOUND, COUNT_SCAN_CALLS, SCAN_COUNT } from './semantics';
import { indexLayout, type IndexLayout } from './collection-index';
import { indexReadText, walkIndex } from './index-reads';
import { forgetIndexed, isIndexed } from './index-marker';

/**
 * plan({ counts: true }): per step with a new default, how many stored keys of the collection
 * carry a TTL longer than it: from the collection index when it is complete (its members a page
 * at a time, each key's PEXPIRETIME read in the same script: a key deleted outside lifespan is not
 * counted; exact, whatever the database's size); else (records of an older version
 * not yet backfilled by a find()/count()) by SCAN + PTTL: at most COUNT_SCAN_CALLS SCAN calls, which walk about
 * COUNT_SCAN_BOUND keys of the database whether they match or not, and at most COUNT_SCAN_BOUND PTTLs). None of them
 * expires because of the step: Redis changes nothing stored, so `affected` is 0 and the count is
 * stated in the effect text with its cost.
 */
export async function countLonger(
  client: RedisClientLike,
  prefix: string,
  mappings: readonly KeyspaceMapping[],
  steps: readonly RedisStep[],
): Promise<RedisStep[]> {
  const counted: RedisStep[] = [];
  for (const step of steps) {
    const mapping = mappings.find((m) => m.collection === step.collection);
    const to = step.payload.to;
    if (!mapping || !step.effect) {
      counted.push(step);
      continue;
    }
    const layout = indexLayout(client, prefix);
    const indexPlace = { entity: mapping.entity.name, operation: `counting keys of '${mapping.collection}'` };
    const fromIndex = await countFromIndex(client, layout, mapping, to, indexPlace);
    if (fromIndex !== undefined) {
      counted.push({ ...step, effect: { ...step.effect, affected: 0, text: `${step.effect.text} ${fromIndex}` } });
      continue;
    }
    const started = Date.now();
    let examined = 0;
    let longer = 0;
    let persistent = 0;
    const pattern = scanPattern(prefix, mapping, {});
    const place = { entity: mapping.entity.name, operation: `counting keys of '${mapping.collection}'` };
    let capped = false;
    const walk = await scanKeys(
      client,
      pattern,
      place,
      async (found) => {
        const keys = found.slice(0, COUNT_SCAN_BOUND - examined);
        capped = keys.length < found.length;
        const ttls = await Promise.all(keys.map((k) => call<number>(client, ['PTTL', k], place)));
        for (const ms of ttls) {
          examined += 1;
          if (ms === -1) persistent += 1;
          else if (to !== 'none' && ms > to * 1000) longer += 1;
        }
        return examined < COUNT_SCAN_BOUND;
      },
      COUNT_SCAN_CALLS,
    );
    const stopped = capped || !walk.complete;
    const walked = `${walk.calls} SCAN call(s)${walkedNodes(walk, client)} (COUNT ${SCAN_COUNT}: about ${walk.calls * SCAN_COUNT} keys of the database walked)`;
    const bound = stopped
      ? ` (stopped after ${walk.calls} SCAN call(s) and ${examined} PTTL(s), before the end of the keyspace: counts are at least)`
      : '';
    const cost = `no complete collection index yet (a find() or count() builds it): SCAN + PTTL over ${examined} keys: ${walked} in ${Date.now() - started} ms`;
    const what =
      to === 'none'
        ? `${examined} stored keys keep their expiry (${persistent} have none)`
        : `${longer} of ${examined} stored keys carry a TTL longer than ${to}s and ${persistent} have none; they keep it`;
    counted.push({
      ...step,
      effect: { ...step.effect, affected: 0, text: `${step.effect.text} ${what}${bound} (${cost}).` },
    });
  }
  return counted;
}

/** The counts from a complete collection index (what and what it cost), or undefined without one. */
async function countFromIndex(
  client: RedisClientLike,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  to: RedisStep['payload']['to'],
  place: CallPlace,
): Promise<string | undefined> {
  if (!(await isIndexed(client, layout, mapping, place)).indexed) return undefined;
  const started = Date.now();
  let examined = 0;
  let longer = 0;
  let persistent = 0;
  const cost = await walkIndex(client, layout, mapping, 'expiry', place, (page) => {
    for (const [, expiry] of page.entries) {
      const ms = Number(expiry);
      examined += 1;
      if (ms === -1) persistent += 1;
      else if (to !== 'none' && ms - page.now > to * 1000) longer += 1;
    }
    return true;
  });
  if (cost.lost) {
    forgetIndexed(client, layout, mapping);
    return undefined;
  }
  const what =
    to === 'none'
      ? `${examined} stored keys keep their expiry (${persistent} have none)`
      : `${longer} of ${examined} stored keys carry a TTL longer than ${to}s and ${persistent} have none; they keep it`;
  return `${what} (${indexReadText(cost, layout)}, in ${Date.now() - started} ms).`;
}
