import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import type { GetOrInsertResult } from '../providers/contract';

/** A key taken and freed again between the insert and the read this often gives up (a key deleted in a loop). */
const ATTEMPTS = 5;

/**
 * getOrInsert() on a store whose insert is atomic and treats an expired-but-stored record as
 * absent: the insert decides (one of two racing callers inserts, the other meets the key), and
 * the loser reads the live record. A record deleted or expired between the two is inserted again.
 * After the last attempt the duplicate error stands (e.g. a unique index besides the key refuses).
 */
export async function insertElseGet<T>(
  entity: T,
  insert: () => Promise<void>,
  get: () => Promise<T | undefined>,
): Promise<GetOrInsertResult<T>> {
  let last: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    try {
      await insert();
      return { entity, inserted: true };
    } catch (error) {
      if (!(error instanceof LifespanError) || error.code !== ErrorCodes.STORE_DUPLICATE_KEY) throw error;
      last = error;
    }
    const found = await get();
    if (found !== undefined) return { entity: found, inserted: false };
  }
  throw last;
}
