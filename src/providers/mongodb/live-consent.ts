import type { CheckedStep } from '../../core/plan-gate';
import { refuseUnconsentedRetroactive } from '../../core/plan-consent';
import type { PlanStep } from '../../core/plan';
import { showValue } from '../../model/duration';
import { ttlCommandOf, type KeyPattern, type TtlCommand } from './commands';
import type { MongoDbLike } from './gateway';
import { holdsDocuments, inspectCollection, type LiveCollection } from './inspect';
import type { MongoPlanStep, MongoStepPayload } from './step-payload';
import { STORE } from './semantics';
import { lengthens } from './ttl-limits';

/** The live expireAfterSeconds each collMod that runs without consent was judged a lengthening of. */
export type JudgedFrom = Map<MongoPlanStep, number>;

/**
 * The retroactive rule judged against the live indexes, at apply() (issue 14). A plan payload is
 * editable data and a collMod carries only the new expireAfterSeconds, so what it does to stored
 * documents is read from the server, not from the payload's `count`: the TTL monitor re-judges
 * every stored document against the index as it is after the step. Fail closed: what cannot be
 * read as a lengthening, an empty collection or a new one counts as making stored documents expire.
 * Returns the live values the collMod steps were judged against, for their reply check (apply.ts).
 */
export async function refuseLiveRetroactive(
  db: MongoDbLike,
  steps: readonly CheckedStep<MongoStepPayload>[],
  allowRetroactive: boolean | undefined,
): Promise<JudgedFrom> {
  const judged: JudgedFrom = new Map();
  if (allowRetroactive === true) return judged;
  const live = new LiveReads(db);
  const expiring: PlanStep[] = [];
  for (const step of steps) {
    if (step.payload.op !== 'command') continue;
    const ttl = ttlCommandOf(step.payload.command);
    // A step earlier in the plan may create the collection: it is judged as the server holds it now.
    const verdict = await judge(ttl, live, step.entity ?? undefined);
    if (verdict === null) continue;
    if (typeof verdict === 'number') judged.set(step, verdict);
    else expiring.push({ ...step, summary: `${step.summary} (${verdict})` });
  }
  refuseUnconsentedRetroactive(STORE, expiring, allowRetroactive);
  return judged;
}

/**
 * What ensureCollections() judged, from the plan it has just made off the live indexes: a collMod
 * it runs without consent and without a count is a lengthening of the planned `ttl.from`.
 */
export function plannedLengthenings(steps: readonly MongoPlanStep[]): JudgedFrom {
  const judged: JudgedFrom = new Map();
  for (const step of steps) {
    const from = step.ttl?.from;
    const lengthening = step.payload.op === 'command' && step.payload.count === null;
    if (lengthening && typeof from === 'number' && ttlCommandOf(step.payload.command).kind === 'collMod') {
      judged.set(step, from);
    }
  }
  return judged;
}

/**
 * null: the command sets no TTL, or sets one over no stored document; a number: the live value a
 * collMod lengthens; a string: why it can make stored documents expire.
 */
async function judge(ttl: TtlCommand, live: LiveReads, entity: string | undefined): Promise<number | string | null> {
  switch (ttl.kind) {
    case 'none':
      return null;
    case 'malformed':
      return ttl.why; // the plan gate refuses these first; never read as harmless
    case 'createIndexes': {
      // A TTL index on a collection that does not exist yet, or holds nothing, finds no stored document.
      if (!(await live.collection(ttl.collection)).exists) return null;
      return (await live.holdsDocuments(ttl.collection, entity)) ? `'${ttl.collection}' holds documents` : null;
    }
    case 'collMod': {
      const index = (await live.collection(ttl.collection)).indexes.find((i) => sameKey(i.key, ttl.key));
      const from = index?.hasTtl ? index.expireAfterSeconds : undefined;
      // Only a lengthening of a valid TTL leaves every stored document's expiry where it was or later.
      if (lengthens(from, ttl.to)) return from as number;
      const was = index === undefined ? 'no such live index' : index.hasTtl ? showValue(from) : 'not a TTL index';
      return `live expireAfterSeconds: ${was} → ${showValue(ttl.to)}`;
    }
  }
}

/** The live indexes and the one-document probe, each read once per collection. */
class LiveReads {
  private readonly collections = new Map<string, Promise<LiveCollection>>();
  private readonly holding = new Map<string, Promise<boolean>>();

  constructor(private readonly db: MongoDbLike) {}

  collection(name: string): Promise<LiveCollection> {
    return cached(this.collections, name, () => inspectCollection(this.db, name));
  }

  holdsDocuments(name: string, entity: string | undefined): Promise<boolean> {
    return cached(this.holding, name, () => holdsDocuments(this.db, name, entity));
  }
}

function cached<T>(cache: Map<string, Promise<T>>, name: string, read: () => Promise<T>): Promise<T> {
  let found = cache.get(name);
  if (!found) cache.set(name, (found = read()));
  return found;
}

function sameKey(a: KeyPattern, b: KeyPattern): boolean {
  const entries = (k: KeyPattern) => JSON.stringify(Object.entries(k).map(([f, d]) => [f, Number(d)]));
  return entries(a) === entries(b);
}
