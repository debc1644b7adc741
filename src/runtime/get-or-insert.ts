import { ErrorCodes } from '../error-codes';
import { StoreError } from '../errors';
import { keyMembers, type EntityModel } from '../model/types';
import type { GetOrInsertResult } from '../providers/contract';
import { duplicateHitOf } from './key-errors';

/** A key taken and freed again between the insert and the read this often gives up (a key deleted in a loop). */
export const GET_OR_INSERT_ATTEMPTS = 5;

/** Where a getOrInsert() runs, for its error. */
export interface GetOrInsertPlace {
  readonly entity: EntityModel;
  readonly store: string;
  readonly collection: string;
}

/**
 * getOrInsert() on a store whose insert is atomic and treats an expired-but-stored record as
 * absent: the insert decides (one of two racing callers inserts, the other meets the key), and
 * the loser reads the live record. A record deleted or expired between the two is inserted again.
 * Only a refusal on the key itself is retried: a unique index besides the key refuses at once.
 */
export async function insertElseGet<T>(
  place: GetOrInsertPlace,
  entity: T,
  insert: () => Promise<void>,
  get: () => Promise<T | undefined>,
): Promise<GetOrInsertResult<T>> {
  let last: unknown;
  for (let attempt = 0; attempt < GET_OR_INSERT_ATTEMPTS; attempt += 1) {
    try {
      await insert();
      return { entity, inserted: true };
    } catch (error) {
      if (duplicateHitOf(error) !== 'key') throw error;
      last = error;
    }
    const found = await get();
    if (found !== undefined) return { entity: found, inserted: false };
  }
  throw getOrInsertContended(place, last);
}

/** getOrInsert() that found the key taken at each insert and gone at each read after it. */
export function getOrInsertContended(place: GetOrInsertPlace, cause: unknown): StoreError {
  const members = keyMembers(place.entity);
  return new StoreError(
    ErrorCodes.STORE_DUPLICATE_KEY,
    `getOrInsert() into '${place.collection}': the key (${members.join(', ')}) was taken at each of ${GET_OR_INSERT_ATTEMPTS} inserts and gone at the read after it (another caller inserts and deletes it); nothing was written`,
    {
      entity: place.entity.name,
      store: place.store,
      hint: 'retry getOrInsert() once the other writer settles, or get() and insert() under your own lock',
      cause,
    },
  );
}
