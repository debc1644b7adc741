import type { CheckedStep } from '../../core/plan-gate';
import { refuseUnconsentedUnexpiry, withUnexpiry } from '../../core/plan-consent';
import { ensureUnexpiryNeedsReview } from '../../runtime/ensure-collections';
import { countFilter, serverNow } from './stored-counts';
import { ttlCommandOf, type KeyPattern } from './commands';
import { inspectCollection } from './inspect';
import type { MongoDbLike } from './gateway';
import type { CountSpec, MongoPlanStep, MongoStepPayload } from './step-payload';
import { STORE } from './semantics';

/** explain()'s sentence on un-expiry (issue 25). */
export const MONGODB_UNEXPIRY =
  'a longer expireAfterSeconds (collMod) keeps documents that are due but not yet deleted by the TTL monitor, and makes them readable again where the store hides them (hideExpired): such a step needs allowUnexpiry (CLI: --allow-unexpiry)';

const STEP_TEXT = 'documents due under the old expireAfterSeconds and not yet deleted by the TTL monitor live again';

/**
 * The documents a collMod lengthening keeps from their deletion: those whose indexed date lies in
 * (now − to, now − from], due under the live `from` and not under `to`. Null for any other step.
 */
function lengthening(step: MongoPlanStep): CountSpec | null {
  if (step.payload.op !== 'command' || step.payload.count !== null) return null;
  const ttl = ttlCommandOf(step.payload.command);
  const from = step.ttl?.from;
  const to = step.ttl?.to;
  if (ttl.kind !== 'collMod' || typeof from !== 'number' || typeof to !== 'number') return null;
  const [field] = Object.keys(ttl.key);
  return field === undefined ? null : { field, atOrBefore: from, after: to };
}

/** Labels every lengthening as an un-expiry; with `counts`, counts the documents it keeps. */
export async function labelUnexpiry(
  db: MongoDbLike,
  steps: readonly MongoPlanStep[],
  counts: boolean,
): Promise<MongoPlanStep[]> {
  const now = counts && steps.some((s) => lengthening(s) !== null) ? await serverNow(db) : null;
  const labelled: MongoPlanStep[] = [];
  for (const step of steps) {
    const spec = lengthening(step);
    if (spec === null) {
      labelled.push(step);
      continue;
    }
    const kept = counts ? (now === null ? null : await countKept(db, step.collection, spec, now)) : undefined;
    labelled.push(withUnexpiry(step, STEP_TEXT, kept));
  }
  return labelled;
}

function countKept(db: MongoDbLike, collection: string, spec: CountSpec, now: Date): Promise<number> {
  return db.collection(collection).countDocuments(countFilter(spec, now), {});
}

/** ensureCollections(): a lengthening over due documents waits for review (or allowUnexpiry). */
export async function refuseUnexpiry(db: MongoDbLike, steps: readonly MongoPlanStep[]): Promise<void> {
  const review: string[] = [];
  let now: Date | null | undefined;
  for (const step of steps) {
    const spec = lengthening(step);
    if (spec === null) continue;
    now ??= await serverNow(db);
    // Fail closed: without the server clock the documents cannot be judged.
    const kept = now === null ? null : await countKept(db, step.collection, spec, now);
    if (kept !== 0)
      review.push(
        `${step.entity ?? step.collection}: ${step.summary} (${kept ?? 'uncounted'} due documents live again)`,
      );
  }
  if (review.length === 0) return;
  throw ensureUnexpiryNeedsReview(`${review.join('; ')}: ${STEP_TEXT}`, {
    store: STORE,
    entity: steps[0]?.entity ?? undefined,
  });
}

/** The per-document expiry field (index expireAfterSeconds: 0): no plan step can bring a document back. */
export const MONGODB_FIELD_UNEXPIRY = {
  possible: false,
  text: 'cannot happen through a plan: each document carries its own expiry instant under an index with expireAfterSeconds: 0, and a TTL change reaches new writes only',
} as const;

/**
 * apply(): a collMod lengthening judged against the live index (the payload carries only the new
 * value, and labels are editable): the documents due under the live expireAfterSeconds and not
 * under the new one are counted at the server clock, and any such document needs allowUnexpiry.
 * Fail closed: a live value that cannot be read, or no server clock, counts as documents kept.
 */
export async function refuseLiveUnexpiry(
  db: MongoDbLike,
  steps: readonly CheckedStep<MongoStepPayload>[],
  allowUnexpiry: boolean | undefined,
): Promise<void> {
  if (allowUnexpiry === true) return;
  const kept: MongoPlanStep[] = [];
  let now: Date | null | undefined;
  for (const step of steps) {
    if (step.payload.op !== 'command' || step.payload.count !== null) continue;
    const ttl = ttlCommandOf(step.payload.command);
    if (ttl.kind !== 'collMod' || typeof ttl.to !== 'number') continue;
    const live = (await inspectCollection(db, ttl.collection)).indexes.find((i) => sameKey(i.key, ttl.key));
    const from = live?.hasTtl && typeof live.expireAfterSeconds === 'number' ? live.expireAfterSeconds : undefined;
    if (from !== undefined && ttl.to <= from) continue;
    const [field] = Object.keys(ttl.key);
    now ??= await serverNow(db);
    const count =
      from === undefined || field === undefined || now === null
        ? null
        : await countKept(db, ttl.collection, { field, atOrBefore: from, after: ttl.to }, now);
    if (count !== 0) kept.push(withUnexpiry(step, STEP_TEXT, count));
  }
  refuseUnconsentedUnexpiry(STORE, kept, allowUnexpiry);
}

function sameKey(a: KeyPattern, b: KeyPattern): boolean {
  const entries = (k: KeyPattern) => JSON.stringify(Object.entries(k).map(([f, d]) => [f, Number(d)]));
  return entries(a) === entries(b);
}

/** explain()'s price of a touch on read (issue 25). */
export const MONGODB_TOUCH = {
  support: 'conditional-write',
  how: 'the read, then for a document under the threshold one updateOne with $max on the expiry-date field (setTtl { extend }): a concurrent write is never lost, a later expiry never shortened; needs the per-write expiry field',
} as const;

/** A collection-wide TTL index on a date member: no per-document expiry to extend. */
export const MONGODB_MEMBER_TOUCH = {
  support: 'unsupported',
  how: 'refused: the TTL index counts from a date member for every document; declare perWrite (the per-document expiry-date field) to touch on read',
} as const;
