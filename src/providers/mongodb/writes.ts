import { LifespanError } from '../../errors';
import type { ResolvedWriteTtl } from '../../model/per-write-ttl';
import { fieldOf } from '../../model/types';
import { stampTimestamps, valuesOf } from '../../runtime/entity-values';
import type { Doc } from './commands';
import type { CollectionMapping, ExpiryFieldTtl } from './compile';
import { idFromValues } from './documents';
import { NOW, REMOVE, isDate, isNewExpression, nowPlus, withLive } from './expiry-expressions';
import { STORE } from './semantics';
import { toStored } from './codec';

/** One updateOne: every lifespan write is an update pipeline, so $$NOW is the server's clock. */
export interface WriteSpec {
  readonly filter: Doc;
  readonly update: Doc[];
  readonly upsert: boolean;
}

/**
 * An insert is an upsert whose filter can never match (no document has this field), so a stored
 * document with the same _id makes the server refuse the insert with DuplicateKey (11000) instead
 * of updating it. ($expr would read better but is not allowed in an upsert's filter: code 224.)
 */
export const INSERT_GUARD = '_lifespanInsertGuard';

/** Stands for "the server's time" in stampTimestamps' output; replaced by $$NOW in the pipeline. */
const SERVER_TIME = new Date(0);

export function entityWrite(
  mapping: CollectionMapping,
  instance: object,
  ttl: ResolvedWriteTtl,
  mode: 'insert' | 'upsert',
  hideExpired: boolean,
): WriteSpec {
  const { entity } = mapping;
  // Insert rules for every write: a placeholder createdAt means "not set"; an upsert keeps a stored one.
  const values = stampTimestamps(entity, valuesOf(entity, instance), () => SERVER_TIME, true);
  const id = idFromValues(mapping, values);
  const isNew = mode === 'insert' ? true : isNewExpression(mapping.ttl, hideExpired);
  const set: Doc = {};
  const expressions = new Map<string, unknown>();
  for (const field of mapping.fields) {
    const value = values[field.member];
    const given = value === SERVER_TIME ? NOW : literal(toStored(mapping, field.member, value));
    const expression =
      mode === 'upsert' && field.member === entity.createdAt
        ? keepStored(field.storedName, given, isNew, hideExpired)
        : given;
    set[field.storedName] = expression;
    expressions.set(field.member, expression);
  }
  checkDateMember(mapping, values);
  const unset: string[] = [];
  if (mapping.ttl?.kind === 'expiry-field') {
    const anchor = mapping.ttl.anchor;
    const anchorExpression = anchor
      ? mapping.key.some((k) => k.member === anchor.member)
        ? literal(values[anchor.member])
        : expressions.get(anchor.member)
      : undefined;
    const expiry = expiryUpdate(mapping.ttl, ttl, anchorExpression, mode === 'insert' ? 'insert' : 'upsert', isNew);
    if ('set' in expiry) set[mapping.ttl.field] = expiry.set;
    if ('unset' in expiry) unset.push(mapping.ttl.field);
  }
  const filter = mode === 'insert' ? { _id: id, [INSERT_GUARD]: { $exists: true } } : { _id: id };
  return { filter, update: pipeline(set, unset), upsert: true };
}

/**
 * @CreatedAt on an upsert: the stored value when the document exists (whatever the instance
 * holds, as a read-modify-write or a fresh instance must not restart a TTL counting from it);
 * the given value, or $$NOW, when the upsert creates it. A due document counts as absent.
 */
function keepStored(field: string, given: unknown, isNew: unknown, hideExpired: boolean): unknown {
  const stored = { $ifNull: [`$${field}`, given] };
  return hideExpired ? { $cond: [isNew, given, stored] } : stored;
}

/** setTtl on a stored (live) document: only the expiry field changes. */
export function setTtlWrite(
  mapping: CollectionMapping,
  ttl: ExpiryFieldTtl,
  id: unknown,
  resolved: ResolvedWriteTtl,
  hideExpired: boolean,
): WriteSpec | null {
  const anchor = ttl.anchor;
  const anchorExpression = anchor ? `$${anchorPath(mapping, anchor.member)}` : undefined;
  const expiry = expiryUpdate(ttl, resolved, anchorExpression, 'set-ttl', false);
  if ('none' in expiry) return null;
  const set: Doc = 'set' in expiry ? { [ttl.field]: expiry.set } : {};
  const update = pipeline(set, 'unset' in expiry ? [ttl.field] : []);
  return { filter: withLive({ _id: id }, mapping.ttl, hideExpired), update, upsert: false };
}

function anchorPath(mapping: CollectionMapping, member: string): string {
  const keyPart = mapping.key.find((k) => k.member === member);
  if (keyPart) return mapping.key.length === 1 ? '_id' : `_id.${keyPart.field}`;
  return fieldOf(mapping.entity, member)?.storedName ?? member;
}

function pipeline(set: Doc, unset: string[]): Doc[] {
  const stages: Doc[] = [];
  if (Object.keys(set).length > 0) stages.push({ $set: set });
  if (unset.length > 0) stages.push({ $unset: unset });
  // An update pipeline needs a stage; an entity of key members only has nothing else to write.
  if (stages.length === 0) stages.push({ $replaceWith: '$$ROOT' });
  return stages;
}

type ExpiryUpdate = { readonly set: unknown } | { readonly unset: true } | { readonly none: true };

/**
 * What a write does to the expiry-date field (DESIGN.md per-write table, MongoDB column):
 * duration n → $$NOW + n; default → anchor + default (or $$NOW + default, or nothing without a
 * default); never → $unset; keep → untouched (a new document gets the default); { extend: n } →
 * the later of the stored expiry and $$NOW + n (a new document gets $$NOW + n; "never" stays never);
 * { at } → the instant.
 */
export function expiryUpdate(
  ttl: ExpiryFieldTtl,
  resolved: ResolvedWriteTtl,
  anchorExpression: unknown,
  mode: 'insert' | 'upsert' | 'set-ttl',
  isNew: unknown,
): ExpiryUpdate {
  const stored = `$${ttl.field}`;
  const fallback = defaultExpiry(ttl, anchorExpression);
  const orNothing = (expression: unknown): ExpiryUpdate =>
    expression !== REMOVE ? { set: expression } : mode === 'insert' ? { none: true } : { unset: true };
  switch (resolved.kind) {
    case 'duration':
      return { set: nowPlus(resolved.seconds) };
    case 'default':
      return orNothing(fallback);
    case 'never':
      return mode === 'insert' ? { none: true } : { unset: true };
    case 'keep':
      if (mode === 'set-ttl') return { none: true };
      return mode === 'insert' ? orNothing(fallback) : { set: { $cond: [isNew, fallback, stored] } };
    case 'extend': {
      const later = { $cond: [isDate(stored), { $max: [stored, nowPlus(resolved.seconds)] }, stored] };
      if (mode === 'insert') return { set: nowPlus(resolved.seconds) };
      return mode === 'set-ttl' ? { set: later } : { set: { $cond: [isNew, nowPlus(resolved.seconds), later] } };
    }
    case 'at':
      // The instant itself: the index has expireAfterSeconds: 0, so the monitor deletes at that date.
      return { set: resolved.at };
  }
}

/** anchor + default, folded when the anchor's value is known; REMOVE when nothing should expire. */
function defaultExpiry(ttl: ExpiryFieldTtl, anchorExpression: unknown): unknown {
  const seconds = ttl.defaultSeconds;
  if (seconds === null) return REMOVE;
  if (ttl.anchor === null || anchorExpression === NOW) return nowPlus(seconds);
  if (anchorExpression instanceof Date) return { $add: [anchorExpression, seconds * 1000] };
  const computed =
    (typeof anchorExpression === 'string' && anchorExpression.startsWith('$')) ||
    (typeof anchorExpression === 'object' && anchorExpression !== null && !('$literal' in anchorExpression));
  // A field path or a computed value: only a date counts, as the TTL monitor would judge it.
  if (computed) return { $cond: [isDate(anchorExpression), { $add: [anchorExpression, seconds * 1000] }, REMOVE] };
  return REMOVE;
}

/** A constant in an aggregation expression: strings starting with $ and objects would be read as expressions. */
export function literal(value: unknown): unknown {
  if (value === null || value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (typeof value === 'string' && !value.startsWith('$')) return value;
  return { $literal: value };
}

/**
 * The TTL counts from this member (its type, a valid Date or a nullable null, is checked with
 * every member): `new Date(0)` in an explicit member is an unset placeholder, and the monitor
 * would delete the document at its next pass.
 */
function checkDateMember(mapping: CollectionMapping, values: Record<string, unknown>): void {
  const ttl = mapping.ttl;
  if (ttl?.kind !== 'date-member') return;
  const value = values[ttl.member];
  if (value !== SERVER_TIME && value instanceof Date && value.getTime() === 0) {
    throw new LifespanError(
      'MONGO_TTL_VALUE_PLACEHOLDER',
      `${ttl.member} is new Date(0), the unset placeholder: the TTL monitor would delete this document at its next pass`,
      { entity: mapping.entity.name, member: ttl.member, store: STORE, hint: `set ${ttl.member} before writing` },
    );
  }
}
