import type { CheckedStep } from '../../core/plan-gate';
import { refuseUnconsentedRetroactive } from '../../core/plan-consent';
import type { Doc, KeyPattern } from './commands';
import type { MongoDbLike } from './gateway';
import { inspectCollection, type LiveCollection } from './inspect';
import type { MongoStepPayload } from './plan';
import { EXPIRE_AFTER_SECONDS, STORE } from './semantics';

/**
 * The retroactive rule judged against the live indexes, at apply() (issue 14). A plan payload is
 * editable data and a collMod carries only the new expireAfterSeconds, so what it does to stored
 * documents is read from the server, not from the payload's `count`: the TTL monitor re-judges
 * every stored document against the index as it is after the step. Fail closed: what cannot be
 * read as a lengthening or a new collection counts as making stored documents expire.
 */
export async function refuseLiveRetroactive(
  db: MongoDbLike,
  steps: readonly CheckedStep<MongoStepPayload>[],
  allowRetroactive: boolean | undefined,
): Promise<void> {
  if (allowRetroactive === true) return;
  const live = new Map<string, LiveCollection>();
  const read = async (name: string) => {
    let found = live.get(name);
    if (!found) live.set(name, (found = await inspectCollection(db, name)));
    return found;
  };
  const expiring: CheckedStep<MongoStepPayload>[] = [];
  for (const step of steps) {
    if (step.payload.op !== 'command') continue;
    const change = ttlChange(step.payload.command);
    if (change === null) continue;
    // A step earlier in the plan may create the collection: it is judged as the server holds it now.
    if (expiresStoredDocuments(change, await read(change.collection))) expiring.push(step);
  }
  refuseUnconsentedRetroactive(STORE, expiring, allowRetroactive);
}

/** A command that sets a TTL: the collMod of an index's expireAfterSeconds, or a TTL index created. */
type TtlChange =
  | { readonly kind: 'collMod'; readonly collection: string; readonly key: KeyPattern; readonly to: unknown }
  | { readonly kind: 'createIndexes'; readonly collection: string };

function ttlChange(command: Doc): TtlChange | null {
  if ('collMod' in command) {
    const index = command['index'] as Doc | undefined;
    if (!index || !(EXPIRE_AFTER_SECONDS in index)) return null;
    const key = (index['keyPattern'] ?? {}) as KeyPattern;
    return { kind: 'collMod', collection: String(command['collMod']), key, to: index[EXPIRE_AFTER_SECONDS] };
  }
  if ('createIndexes' in command) {
    const specs: unknown[] = Array.isArray(command['indexes']) ? command['indexes'] : [];
    const setsTtl = specs.some((s) => typeof s === 'object' && s !== null && EXPIRE_AFTER_SECONDS in s);
    return setsTtl ? { kind: 'createIndexes', collection: String(command['createIndexes']) } : null;
  }
  return null;
}

function expiresStoredDocuments(change: TtlChange, live: LiveCollection): boolean {
  // A TTL index on a collection that does not exist yet finds no stored document.
  if (change.kind === 'createIndexes') return live.exists;
  const index = live.indexes.find((i) => sameKey(i.key, change.key));
  const from = index?.hasTtl ? index.expireAfterSeconds : undefined;
  // Only a lengthening of a valid TTL leaves every stored document's expiry where it was or later.
  const lengthens = isValidTtl(from) && typeof change.to === 'number' && change.to >= from;
  return !lengthens;
}

function sameKey(a: KeyPattern, b: KeyPattern): boolean {
  const entries = (k: KeyPattern) => JSON.stringify(Object.entries(k).map(([f, d]) => [f, Number(d)]));
  return entries(a) === entries(b);
}

function isValidTtl(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
