import { describeValue } from '../core/values';
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

export interface DuplicateKeyFacts {
  readonly store: string;
  readonly entity: EntityModel;
  /** The collection, table, container or key space the record lives in. */
  readonly collection: string;
  /** The record (or its key members) whose key was found; undefined where the store does not say which one. */
  readonly record: object | undefined;
  /** Set when a unit of work's commit met the key. */
  readonly unitOfWork?: CommitOutcome | undefined;
  readonly cause?: unknown;
}

const INSERT_HINT = 'use upsert() to overwrite it, or delete() it first';

/**
 * The message and options of a STORE_DUPLICATE_KEY, for an error class that adds fields of its own
 * (a commit error that counts what was written); duplicateKey() is the usual way in.
 */
export function duplicateKeyParts(facts: DuplicateKeyFacts): { message: string; options: LifespanErrorOptions } {
  const { entity, collection, unitOfWork } = facts;
  const which = facts.record === undefined ? 'one of the keys it inserts' : `key ${shownKey(entity, facts.record)}`;
  const found = `insert into '${collection}': a live record with ${which} already exists`;
  const message = unitOfWork ? `unit of work ${found}; ${unitOfWork.written}` : found;
  const hint = !unitOfWork
    ? INSERT_HINT
    : unitOfWork.nothingWritten
      ? `nothing was written: in a new unitOfWork(), ${INSERT_HINT}`
      : `the unit of work is not atomic here: undo or re-send what the message lists as written, in a new unitOfWork() (${INSERT_HINT})`;
  return { message, options: { entity: entity.name, store: facts.store, hint, cause: facts.cause } };
}

/** insert() (or a unit of work's insert) of a key that holds a live record. */
export function duplicateKey(facts: DuplicateKeyFacts): StoreError {
  const { message, options } = duplicateKeyParts(facts);
  return new StoreError(ErrorCodes.DUPLICATE_KEY, message, options);
}

/** The key of a record as messages show it: a one-member key as its value, a compound one as { member: value }. */
function shownKey(entity: EntityModel, record: object): string {
  const members = keyMembers(entity);
  const values = record as Record<string, unknown>;
  if (members.length === 1) return describeValue(values[members[0] as string]);
  return describeValue(Object.fromEntries(members.map((m) => [m, values[m]])));
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
