import type { ConditionalWriteRow } from '../../explain/entry';
import { conditionalWriteRows } from '../../explain/per-write-rows';
import type { CollectionMapping } from './compile';

/**
 * explain()'s rows for update(), delete({ ifVersion }), getOrInsert() and patch(): each filters on
 * the live predicate whatever hideExpired says, since a due document still matches an update until
 * the TTL monitor deletes it.
 */
export function mongoConditionalWrites(mapping: CollectionMapping): ConditionalWriteRow[] {
  const version = mapping.entity.version ?? 'version';
  const ttl = mapping.ttl;
  const live = ttl
    ? `, $expr: <not due: ${ttl.index.field}${ttl.kind === 'date-member' ? ` + ${ttl.seconds}s` : ''} > $$NOW>`
    : '';
  const due = ttl ? '; a due document the TTL monitor has not deleted yet matches nothing (version 0)' : '';
  const patchExpiry =
    ttl?.kind === 'expiry-field'
      ? `'keep' by default: ${ttl.field} is not written; { ttl } sets it as setTtl() does`
      : ttl?.kind === 'date-member'
        ? `'keep' by default: nothing expiry-related is written unless the patch changes ${ttl.member}, which moves the expiry; { ttl } needs perWrite`
        : 'no TTL declared';
  return conditionalWriteRows(mapping.entity, {
    update: {
      how: `updateOne({ _id, ${version}: n (0: also null or missing)${live} }, [update pipeline], { upsert: false }): matchedCount 0 is STORE_VERSION_CONFLICT`,
      expiry: `as for upsert (the per-write value, by default the entity default)${due}`,
    },
    'delete-if-version': { how: `deleteOne({ _id, ${version}: n${live} })`, expiry: `none${due}` },
    getOrInsert: {
      how:
        'the insert (an upsert whose filter cannot match, so the server lets one of two racing callers create _id); ' +
        'on a duplicate _id, a deleteOne of the document while it is due and the insert again, else a find of the live document',
      expiry: 'the new document gets its TTL (a due one is replaced); a live one is returned untouched',
    },
    patch: {
      how: `updateOne({ _id${live} }, [{ $set: { <changed fields>${mapping.entity.version ? `, ${version}: { $add: [{ $ifNull: ['$${version}', 0] }, 1] }` : ''} } }])`,
      expiry: patchExpiry,
    },
  });
}
