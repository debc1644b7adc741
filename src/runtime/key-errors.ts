import { ErrorCodes } from '../error-codes';
import { LifespanError, StoreError, type LifespanErrorOptions } from '../errors';
import { keyMembers, type EntityModel } from '../model/types';

/**
 * The errors about a record's key, built once for every store: one wording each, so a program
 * (and a person) reads STORE_DUPLICATE_KEY and KEY_INCOMPLETE alike whichever store raised them.
 * Providers pass only what differs: where the record lives and what their commit really left.
 */

/** What a failed unit-of-work commit left in the store, as the store really behaves. */
export interface CommitOutcome {
  /** True when nothing of the unit was written (one transaction, one script, one rolled-back batch). */
  readonly nothingWritten: boolean;
  /** What was and was not written, in the store's terms (e.g. "operation 2 of 3; one script, atomic"). */
  readonly written: string;
}

/**
 * What the store says refused the write. Only 'key' names the record's key: a store says so (the
 * primary key, _id, a conditional insert that found the row), never a guess from "some unique
 * index" (a unique index added outside lifespan refuses other members' values).
 */
export type DuplicateHit =
  /** The record's own key holds a live record. */
  | 'key'
  /** One of the keys a unit of work inserts holds a live record; the store does not say which one. */
  | 'one-of-keys'
  /** The unit of work itself inserts one key twice (nothing stored holds it). */
  | 'inserted-twice'
  /** A unique constraint that the store did not name as the key (e.g. a unique index on another member). */
  | 'unique-constraint';

export interface DuplicateKeyFacts {
  readonly store: string;
  readonly entity: EntityModel;
  /** The collection, table, container or key space the record lives in. */
  readonly collection: string;
  readonly hit: DuplicateHit;
  /** Set when a unit of work's commit met the key. */
  readonly unitOfWork?: CommitOutcome | undefined;
  readonly cause?: unknown;
}

const INSERT_HINT = 'use upsert() to overwrite it, or delete() it first';

/**
 * Per hit: the insert it names (none for a unique constraint, met by upserts too), what was found
 * and what to do about it.
 */
function wordingOf(facts: DuplicateKeyFacts): { insert: boolean; found: string; hint: string } {
  // Key members, never key values: a key can be a bearer value (a session id, an API token).
  const members = `(${keyMembers(facts.entity).join(', ')})`;
  switch (facts.hit) {
    case 'key':
      return { insert: true, found: `a live record with this key ${members} already exists`, hint: INSERT_HINT };
    case 'one-of-keys':
      return { insert: true, found: 'a live record with one of the keys it inserts already exists', hint: INSERT_HINT };
    case 'inserted-twice':
      return {
        insert: true,
        found: `the unit of work inserts key ${members} twice`,
        hint: 'insert each key once (a later write of the same record is an upsert())',
      };
    case 'unique-constraint':
      return {
        insert: false,
        found: `a unique constraint of '${facts.collection}' refused the write (another record holds a value it must not share)`,
        hint:
          'change the value that a unique index or constraint besides the key refuses, or delete() the record ' +
          'that holds it (upsert() cannot overwrite another record)',
      };
  }
}

/**
 * The message and options of a STORE_DUPLICATE_KEY, for an error class that adds fields of its own
 * (a commit error that counts what was written); duplicateKey() is the usual way in.
 */
export function duplicateKeyParts(facts: DuplicateKeyFacts): { message: string; options: LifespanErrorOptions } {
  const { entity, unitOfWork } = facts;
  const { insert, found, hint: action } = wordingOf(facts);
  const into = insert ? `insert into '${facts.collection}'` : undefined;
  const head = unitOfWork ? ['unit of work', into].filter(Boolean).join(' ') : into;
  const text = head ? `${head}: ${found}` : found;
  const message = unitOfWork ? `${text}; ${unitOfWork.written}` : text;
  const hint = !unitOfWork
    ? action
    : unitOfWork.nothingWritten
      ? `nothing was written: in a new unitOfWork(), ${action}`
      : `the unit of work is not atomic here: undo or re-send what the message lists as written, in a new unitOfWork() (${action})`;
  return { message, options: { entity: entity.name, store: facts.store, hint, cause: facts.cause } };
}

/** What each STORE_DUPLICATE_KEY built here hit, for a caller that retries only on the key (getOrInsert). */
const hits = new WeakMap<object, DuplicateHit>();

/** insert() (or a unit of work's write) that met a live key or a unique constraint. */
export function duplicateKey(facts: DuplicateKeyFacts): StoreError {
  const { message, options } = duplicateKeyParts(facts);
  const error = new StoreError(ErrorCodes.STORE_DUPLICATE_KEY, message, options);
  hits.set(error, facts.hit);
  return error;
}

/** The hit of a STORE_DUPLICATE_KEY built by duplicateKey(); undefined for any other error. */
export function duplicateHitOf(error: unknown): DuplicateHit | undefined {
  return typeof error === 'object' && error !== null ? hits.get(error) : undefined;
}

/**
 * Whether the unit of work itself left the key of operation `at` written before it: the last
 * earlier operation on the same key is a write, not a delete. An insert there meets the unit's own
 * write ('inserted-twice'), not a stored record.
 */
export function unitHoldsKey<Op>(
  ops: readonly Op[],
  at: number,
  sameKey: (earlier: Op, failing: Op) => boolean,
  isDelete: (op: Op) => boolean,
): boolean {
  const failing = ops[at] as Op;
  for (let i = at - 1; i >= 0; i--) {
    const op = ops[i] as Op;
    if (sameKey(op, failing)) return !isDelete(op);
  }
  return false;
}

/** Why a key argument is not a whole key. */
export type KeyGap =
  | { readonly kind: 'absent'; readonly given: null | undefined }
  | { readonly kind: 'single-value' }
  | { readonly kind: 'missing-member'; readonly member: string };

/** KEY_INCOMPLETE: a key argument (or a record being written) without every key member. */
export function keyIncomplete(entity: EntityModel, gap: KeyGap, store: string): LifespanError {
  const members = keyMembers(entity);
  const asObject = `pass an object: { ${members.map((m) => `${m}: …`).join(', ')} }`;
  const place = { entity: entity.name, store };
  switch (gap.kind) {
    case 'absent':
      return new LifespanError(ErrorCodes.KEY_INCOMPLETE, `the key is ${String(gap.given)}`, {
        ...place,
        // A one-member key names the member that is missing.
        ...(members.length === 1 ? { member: members[0] } : {}),
        hint: members.length === 1 ? `pass the value of ${members[0]} (or { ${members[0]}: … })` : asObject,
      });
    case 'single-value':
      return new LifespanError(
        ErrorCodes.KEY_INCOMPLETE,
        `the key has ${members.length} members (${members.join(', ')}), got a single value`,
        { ...place, hint: asObject },
      );
    case 'missing-member':
      return new LifespanError(ErrorCodes.KEY_INCOMPLETE, `key member '${gap.member}' is missing`, {
        ...place,
        member: gap.member,
        hint: `pass every key member: ${members.join(', ')}`,
      });
  }
}
