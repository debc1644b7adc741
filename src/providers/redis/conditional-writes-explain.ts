import type { ConditionalWriteRow } from '../../explain/entry';
import { conditionalWriteRows } from '../../explain/per-write-rows';
import type { KeyspaceMapping } from './compile';

/** explain()'s rows for update(), delete({ ifVersion }), getOrInsert() and patch() on Redis keys. */
export function redisConditionalWrites(mapping: KeyspaceMapping): ConditionalWriteRow[] {
  const version = mapping.entity.version ?? 'version';
  return conditionalWriteRows(mapping.entity, {
    update: {
      how: `one script: GET, compare the stored ${version} (cjson.decode; none stored counts as 0), SET; an expired key is absent`,
      expiry:
        "the per-write value: SET … EX n (by default the entity default), SET without EX ('never'), KEEPTTL ('keep')",
    },
    'delete-if-version': { how: `one script: GET, compare ${version}, DEL`, expiry: 'none' },
    getOrInsert: {
      how: 'SET key value NX [EX n] GET (Redis 7.0+): one command that writes the key or returns what it holds',
      expiry: 'the new key gets its TTL; a live key is returned untouched',
    },
    patch: {
      how: 'GET, then one script that SETs the patched record only while the key still holds what was read (else read again; STORE_WRITE_CONTENDED after 5 tries)',
      expiry:
        "'keep' by default: SET … KEEPTTL; { ttl }: EX n, no expiry ('never') or EXPIRE … GT n ({ extend }). The key's TTL counts from the write, never from a member, so patching a date member moves no expiry",
    },
  });
}
