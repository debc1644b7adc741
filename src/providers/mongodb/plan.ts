import { renderStep } from '../../core/plan-gate';
import type { StepEffect } from '../../core/plan';
import { showValue } from '../../model/duration';
import type { CollectionMapping, TtlIndexSpec } from './compile';
import {
  collModCommand,
  createCollectionCommand,
  createIndexesCommand,
  dropIndexCommand,
  type KeyPattern,
} from './commands';
import type { LiveCollection, LiveIndex, LiveSchema } from './inspect';
import { MONGODB_STEPS } from './steps';
import { isValidTtl, lengthens } from './ttl-limits';
import { COLLMOD_CONVERT_MIN_VERSION, SAY, UNVERIFIED_NOTE, RETROACTIVITY_VERIFIED, versionAtLeast } from './semantics';
import type { CountSpec, MongoPlanStep } from './step-payload';

export type { CountSpec, MongoPlanStep, MongoStepPayload } from './step-payload';

export interface PlanContext {
  readonly allowDestructive: boolean;
}

/** Diffs the desired TTL indexes against the live ones: pure, so every branch is tested without a server. */
export function planSchema(
  mappings: readonly CollectionMapping[],
  live: LiveSchema,
  ctx: PlanContext,
): MongoPlanStep[] {
  const steps: MongoPlanStep[] = [];
  for (const mapping of mappings) {
    const current = live.collections.find((c) => c.name === mapping.collection) ?? {
      name: mapping.collection,
      exists: false,
      indexes: [],
    };
    steps.push(...planCollection(mapping, current, live.serverVersion, ctx));
  }
  return steps;
}

function planCollection(
  mapping: CollectionMapping,
  current: LiveCollection,
  version: string | null,
  ctx: PlanContext,
): MongoPlanStep[] {
  const steps: MongoPlanStep[] = [];
  // The command text people review is rendered from the payload apply() runs, by the step table.
  const step = (s: Omit<MongoPlanStep, 'entity' | 'collection' | 'command'>) =>
    steps.push({
      entity: mapping.entity.name,
      collection: mapping.collection,
      ...s,
      command: renderStep(MONGODB_STEPS, s.payload),
    });
  const collection = mapping.collection;
  if (!current.exists) {
    const command = createCollectionCommand(collection);
    step({
      action: 'create-collection',
      class: 'additive',
      summary: `create collection ${collection}`,
      payload: { op: 'command', command, count: null },
    });
  }
  const desired = mapping.ttl?.index ?? null;
  const ttlIndexes = current.indexes.filter((i) => i.hasTtl && singleField(i.key) !== null);
  const kept = desired ? planDesired(mapping, desired, current, version, ctx, step) : null;
  for (const index of ttlIndexes) {
    if (index !== kept) foreignTtlIndex(mapping, index, ctx, step);
  }
  return steps;
}

type AddStep = (s: Omit<MongoPlanStep, 'entity' | 'collection' | 'command'>) => void;

/** Plans the desired TTL index; returns the live index that becomes (or already is) it. */
function planDesired(
  mapping: CollectionMapping,
  desired: TtlIndexSpec,
  current: LiveCollection,
  version: string | null,
  ctx: PlanContext,
  step: AddStep,
): LiveIndex | null {
  const collection = mapping.collection;
  const onField = current.indexes.filter((i) => singleField(i.key) === desired.field && !i.partial);
  const ttl = onField.filter((i) => i.hasTtl);
  const match =
    ttl.find((i) => i.expireAfterSeconds === desired.expireAfterSeconds) ?? ttl[0] ?? onField.find((i) => !i.hasTtl);
  const to = desired.expireAfterSeconds;
  if (match === undefined) {
    createIndex(mapping, desired, current, step);
    return null;
  }
  if (match.hasTtl) {
    if (match.expireAfterSeconds === to) return match;
    const valid = isValidTtl(match.expireAfterSeconds);
    const from = valid ? (match.expireAfterSeconds as number) : null;
    const command = collModCommand(collection, match.key, to);
    step({
      action: valid ? 'set-expire-after-seconds' : 'repair-expire-after-seconds',
      class: 'in-place',
      summary: valid
        ? `change TTL index ${match.name} on ${collection}.${desired.field}: expireAfterSeconds ${from} → ${to}`
        : `repair TTL index ${match.name} on ${collection}.${desired.field}: expireAfterSeconds ` +
          `${showValue(match.expireAfterSeconds)} → ${to} (servers 5.0.0–5.0.13 and 6.0.0–6.0.1 treat NaN as 0)`,
      ttl: { from, to },
      effect: changeEffect(desired.field, from, to, valid),
      payload: { op: 'command', command, count: countFor(desired.field, from, to) },
    });
    return match;
  }
  if (versionAtLeast(version, COLLMOD_CONVERT_MIN_VERSION)) {
    const command = collModCommand(collection, match.key, to);
    step({
      action: 'convert-to-ttl-index',
      class: 'in-place',
      summary: `make index ${match.name} on ${collection}.${desired.field} a TTL index (expireAfterSeconds: ${to})`,
      ttl: { from: null, to },
      effect: createEffect(desired.field, to),
      payload: { op: 'command', command, count: countFor(desired.field, null, to) },
    });
    return match;
  }
  const why =
    `index ${match.name} on ${collection}.${desired.field} is not a TTL index, and MongoDB ` +
    `${version ?? '(version unknown)'} cannot convert it in place (collMod does so from 5.1)`;
  if (ctx.allowDestructive) {
    dropIndex(collection, match, why, step);
    createIndex(mapping, desired, current, step);
    return null;
  }
  conflict(collection, `${why}; upgrade to 5.1+, or allow destructive steps to drop and recreate it`, step);
  return match;
}

function createIndex(mapping: CollectionMapping, desired: TtlIndexSpec, current: LiveCollection, step: AddStep): void {
  // The default name may belong to an index on another key; a free name avoids IndexKeySpecsConflict (86).
  const taken = new Set(current.indexes.map((i) => i.name));
  let name = desired.name;
  for (let n = 2; taken.has(name); n++) name = `${desired.name}_ttl${n === 2 ? '' : n}`;
  const index = { ...desired, name };
  const command = createIndexesCommand(mapping.collection, index);
  const to = desired.expireAfterSeconds;
  step({
    action: 'create-ttl-index',
    class: 'additive',
    summary: `create TTL index ${name} on ${mapping.collection}.${desired.field} (expireAfterSeconds: ${to})`,
    ttl: { from: null, to },
    effect: current.exists
      ? createEffect(desired.field, to)
      : { kind: 'none', text: 'the collection is new: no stored document is affected', verified: true },
    payload: { op: 'command', command, count: current.exists ? countFor(desired.field, null, to) : null },
  });
}

function foreignTtlIndex(mapping: CollectionMapping, index: LiveIndex, ctx: PlanContext, step: AddStep): void {
  const field = singleField(index.key) ?? '?';
  const why =
    mapping.ttl === null
      ? `TTL index ${index.name} on ${mapping.collection}.${field} deletes documents, but ${mapping.entity.name} declares no TTL`
      : `TTL index ${index.name} on ${mapping.collection}.${field} ${index.partial ? '(partial) ' : ''}also deletes ` +
        `documents, but ${mapping.entity.name}'s TTL is ${mapping.ttl.index.name} on ${mapping.ttl.index.field}`;
  if (ctx.allowDestructive) dropIndex(mapping.collection, index, why, step);
  else conflict(mapping.collection, `${why}; allow destructive steps to drop it`, step);
}

function dropIndex(collection: string, index: LiveIndex, why: string, step: AddStep): void {
  const command = dropIndexCommand(collection, index.name);
  step({
    action: 'drop-index',
    class: 'destructive',
    summary: `drop index ${index.name} on ${collection} (${why})`,
    ...(index.hasTtl
      ? { ttl: { from: isValidTtl(index.expireAfterSeconds) ? index.expireAfterSeconds : null, to: null } }
      : {}),
    effect: {
      kind: 'none',
      text: index.hasTtl
        ? `documents are no longer deleted by ${index.name}; no document is deleted by the drop itself`
        : 'queries that used the index lose it until it is recreated',
      verified: true,
    },
    payload: { op: 'command', command, count: null },
  });
}

function conflict(collection: string, reason: string, step: AddStep): void {
  step({
    action: 'conflict',
    class: 'conflict',
    summary: reason,
    payload: { op: 'conflict', reason },
  });
}

function changeEffect(field: string, from: number | null, to: number, valid: boolean): StepEffect {
  if (from !== null && to > from) {
    return {
      kind: 'retroactive',
      text:
        `lengthening is retroactive: documents not yet deleted whose ${field} is between now − ${to}s and ` +
        `now − ${from}s live on until ${field} + ${to}s; no document becomes eligible because of this step (${UNVERIFIED_NOTE})`,
      verified: RETROACTIVITY_VERIFIED,
    };
  }
  return {
    kind: 'retroactive',
    text: valid ? SAY.collModRetroactive(field) : SAY.createRetroactive(field, to),
    verified: RETROACTIVITY_VERIFIED,
  };
}

function createEffect(field: string, to: number): StepEffect {
  return { kind: 'retroactive', text: SAY.createRetroactive(field, to), verified: RETROACTIVITY_VERIFIED };
}

function countFor(field: string, from: number | null, to: number): CountSpec | null {
  return lengthens(from, to) ? null : { field, atOrBefore: to, after: from };
}

/** The one field of a single-field key pattern, or null for compound (or empty) keys. */
export function singleField(key: KeyPattern): string | null {
  const fields = Object.keys(key);
  return fields.length === 1 ? (fields[0] as string) : null;
}
