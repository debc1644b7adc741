import { checkValue } from '../../core/values';
import { fieldOf } from '../../model/types';
import type { CollectionMapping } from './compile';
import { STORE } from './semantics';

/**
 * A member value as it goes into BSON, checked by the store-neutral checker. BSON keeps whatever
 * JS type it is given, so without this a string lands in a number field, NaN in a count and `5`
 * in a string `_id` (which then never matches the key '5'), and nothing ever complains. Writes,
 * keys and filters all pass through here. A nullable member's null/undefined is null; a bigint
 * member is always a JS bigint, so the driver writes it as int64 whatever its size.
 */
export function toStored(mapping: CollectionMapping, member: string, value: unknown): unknown {
  const field = fieldOf(mapping.entity, member);
  const ttl = mapping.ttl;
  // The TTL monitor skips a document whose indexed field is not a date: it would never expire.
  const note =
    ttl?.kind === 'date-member' && ttl.member === member
      ? `(the TTL index on ${ttl.field} never expires a document whose ${ttl.field} is not a date)`
      : undefined;
  // A key member is never nullable: its missing value is refused as such, with no advice to declare it so.
  const key = mapping.key.some((part) => part.member === member);
  const place = { entity: mapping.entity.name, member, store: STORE, key, note };
  return checkValue(field?.type ?? 'json', field?.nullable ?? false, value, place);
}
