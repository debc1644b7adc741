import type { ConditionalWriteRow } from '../../explain/entry';
import { conditionalWriteRows } from '../../explain/per-write-rows';
import type { EntityModel } from '../../model/types';

/**
 * explain()'s rows for update(), delete({ ifVersion }), getOrInsert() and patch(): the item is read
 * (with the server's Date header and the container's DefaultTimeToLive, so an item past _ts + ttl
 * that the service has not removed yet counts as absent) and written with If-Match on its _etag.
 */
export function cosmosConditionalWrites(entity: EntityModel): ConditionalWriteRow[] {
  const version = entity.version ?? 'version';
  return conditionalWriteRows(entity, {
    update: {
      how: `point read, ${version} compared, then replace with If-Match: <_etag> (412 from a write in between is STORE_VERSION_CONFLICT)`,
      expiry:
        "a replace resets _ts: the per-write value decides (by default no ttl property, so the container default counts again from this write; 'keep' writes the remaining seconds)",
    },
    'delete-if-version': { how: `point read, ${version} compared, then delete with If-Match: <_etag>`, expiry: 'none' },
    getOrInsert: {
      how: 'create (409 when the id is taken: the live item is read and returned); an item past _ts + ttl still stored is replaced with If-Match on its _etag',
      expiry: 'the new item gets its TTL; a live item is returned untouched',
    },
    patch: {
      how:
        'point read, then patch operations (set of each changed property) with If-Match on the _etag read; over the ' +
        "service's 10 operations per patch request, a replace of the item with If-Match instead (412: read again; STORE_WRITE_CONTENDED after 5 tries)",
      expiry:
        "'keep' by default: a patch resets _ts, so it also sets /ttl to the item's remaining seconds (the expiry instant stays, " +
        'to the second: a patch crossing a second boundary can add up to ~1 s). An item on the container default gets ' +
        'its own ttl this way: a later DefaultTimeToLive change no longer reaches it. { ttl } sets /ttl as setTtl() does. ' +
        'The TTL counts from _ts, never from a member, so patching a date member moves no expiry',
    },
  });
}
