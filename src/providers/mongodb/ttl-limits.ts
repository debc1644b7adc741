import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import { MAX_EXPIRE_AFTER_SECONDS, STORE } from './semantics';

/** A TTL value the server applies as written: a whole number ≥ 0 (old servers kept NaN and strings). */
export function isValidTtl(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * Last line of defence before a TTL index value leaves lifespan. MongoDB servers have deleted whole
 * collections for values they should have refused: a non-numeric value counted as 0 before 2.4.9
 * (SERVER-11194), NaN counted as 0 on 5.0.0–5.0.13 and 6.0.0–6.0.1 (SERVER-68477), and a fractional
 * value is silently truncated by the validator (store-ttl.md §1.2). So only an int32-safe whole
 * number in 0..2147483647 ever reaches a command, whatever path computed it.
 */
export function checkExpireAfterSeconds(value: unknown, collection: string): number {
  const ok = isValidTtl(value) && value <= MAX_EXPIRE_AFTER_SECONDS;
  if (!ok) {
    throw new LifespanError(
      'MONGO_BAD_EXPIRE_AFTER_SECONDS',
      `refusing to send expireAfterSeconds ${showValue(value)} for collection '${collection}': ` +
        `it must be a whole number in 0..${MAX_EXPIRE_AFTER_SECONDS}`,
      {
        store: STORE,
        hint: 'MongoDB servers have treated NaN and non-numbers as 0 and deleted everything; fix the TTL that produced it',
      },
    );
  }
  return value;
}

/** A TTL index key must name exactly one field, and never _id (or a part of it). */
export function checkTtlKey(key: Readonly<Record<string, unknown>>, collection: string): string {
  const fields = Object.keys(key);
  const [field] = fields;
  if (fields.length !== 1 || field === undefined) {
    throw new LifespanError(
      'MONGO_TTL_COMPOUND_KEY',
      `refusing to put expireAfterSeconds on a compound index ${showValue(key)} of collection '${collection}'`,
      { store: STORE, hint: 'a TTL index is single-field; compound indexes ignore or reject expireAfterSeconds' },
    );
  }
  if (field === '_id' || field.startsWith('_id.')) {
    throw new LifespanError(
      'MONGO_TTL_ON_ID',
      `refusing to put expireAfterSeconds on the _id index of collection '${collection}'`,
      { store: STORE, hint: 'the _id field does not support TTL indexes; count the TTL from a date member' },
    );
  }
  return field;
}

/**
 * Moving expireAfterSeconds `from` → `to` leaves every stored document's expiry where it was or
 * later: a lengthening (or no change) of a valid TTL. Anything else can make stored documents expire.
 */
export function lengthens(from: unknown, to: unknown): boolean {
  return isValidTtl(from) && typeof to === 'number' && to >= from;
}
