import type { ConditionalWriteRow } from '../../../explain/entry';
import { conditionalWriteRows } from '../../../explain/per-write-rows';
import type { EntityModel } from '../../../model/types';
import { EXPIRY_COLUMN } from '../schema/names';
import type { RelationalTtlMode } from '../options';

/** A patch keeps expires_at; one that changes the anchor member counts the default from its new value. */
function patchExpiry(entity: EntityModel): string {
  const anchor = entity.ttl?.anchor;
  const moved =
    anchor?.source === 'explicit' && entity.ttl?.seconds != null
      ? `; a patch of ${anchor.member} (the TTL's anchor) sets ${EXPIRY_COLUMN} = the new ${anchor.member} + ${entity.ttl.seconds}s`
      : '';
  return `'keep' by default: ${EXPIRY_COLUMN} is not written${moved}; { ttl } sets it as setTtl() does`;
}

/** explain()'s rows for update(), delete({ ifVersion }), getOrInsert() and patch() on a relational table. */
export function relationalConditionalWrites(entity: EntityModel, mode: RelationalTtlMode): ConditionalWriteRow[] {
  const version = entity.version ?? 'version';
  const emulated = mode === 'emulate' && entity.ttl !== null;
  const live = emulated ? ` AND (${EXPIRY_COLUMN} IS NULL OR ${EXPIRY_COLUMN} > now)` : '';
  const due = emulated
    ? `; a row past ${EXPIRY_COLUMN} (still stored until purgeExpired()) matches nothing: version 0`
    : '';
  return conditionalWriteRows(entity, {
    update: {
      how: `UPDATE … SET <every non-key column>, ${version} = ? WHERE <key> AND COALESCE(${version}, 0) = ?${live}: 0 rows changed is STORE_VERSION_CONFLICT`,
      expiry: emulated
        ? `${EXPIRY_COLUMN} as for upsert: the per-write value, by default the entity default counted from now${due}`
        : 'no expiry is kept',
    },
    'delete-if-version': {
      how: `DELETE … WHERE <key> AND COALESCE(${version}, 0) = ?${live}`,
      expiry: emulated ? `none${due}` : 'none',
    },
    getOrInsert: {
      how: emulated
        ? 'the insert (SQLite, PostgreSQL: INSERT … ON CONFLICT DO UPDATE … WHERE the stored row is due; MariaDB/MySQL: ' +
          'DELETE of a due row, then INSERT), and when the key holds a live row, a SELECT of it: one of two racing callers inserts'
        : 'INSERT, and when the key holds a row, a SELECT of it: one of two racing callers inserts',
      expiry: emulated ? `the new row gets its TTL (a due row is replaced); a live row is returned untouched` : 'none',
    },
    patch: {
      how: `UPDATE … SET <the changed columns>${entity.version ? `, ${version} = COALESCE(${version}, 0) + 1` : ''} WHERE <key>${live}`,
      expiry: emulated ? patchExpiry(entity) : 'no expiry is kept',
    },
  });
}
