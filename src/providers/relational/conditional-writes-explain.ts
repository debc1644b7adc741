import type { ConditionalWriteRow } from '../../explain/entry';
import { conditionalWriteRows } from '../../explain/per-write-rows';
import type { EntityModel } from '../../model/types';
import { EXPIRY_COLUMN } from './dialect';
import type { RelationalTtlMode } from './options';

/** explain()'s rows for update(), delete({ ifVersion }), getOrInsert() and patch() on a relational table. */
export function relationalConditionalWrites(entity: EntityModel, mode: RelationalTtlMode): ConditionalWriteRow[] {
  const version = entity.version ?? 'version';
  const emulated = mode === 'emulate' && entity.ttl !== null;
  const live = emulated ? ` AND (${EXPIRY_COLUMN} IS NULL OR ${EXPIRY_COLUMN} > now)` : '';
  const due = emulated
    ? `; a row past ${EXPIRY_COLUMN} (still stored until purgeExpired()) matches nothing: version 0`
    : '';
  return conditionalWriteRows({
    update: {
      how: `UPDATE … SET <every non-key column>, ${version} = ? WHERE <key> AND ${version} = ?${live}: 0 rows changed is STORE_VERSION_CONFLICT`,
      expiry: emulated
        ? `${EXPIRY_COLUMN} as for upsert: the per-write value, by default the entity default counted from now${due}`
        : 'no expiry is kept',
    },
    'delete-if-version': {
      how: `DELETE … WHERE <key> AND ${version} = ?${live}`,
      expiry: emulated ? `none${due}` : 'none',
    },
    getOrInsert: {
      how:
        'the insert (SQLite, PostgreSQL: INSERT … ON CONFLICT DO UPDATE … WHERE the stored row is due; MariaDB/MySQL: ' +
        'DELETE of a due row, then INSERT), and when the key holds a live row, a SELECT of it: one of two racing callers inserts',
      expiry: emulated ? `the new row gets its TTL (a due row is replaced); a live row is returned untouched` : 'none',
    },
    patch: {
      how: `UPDATE … SET <the changed columns>${entity.version ? `, ${version} = ${version} + 1` : ''} WHERE <key>${live}`,
      expiry: emulated
        ? `'keep' by default: ${EXPIRY_COLUMN} is not written; { ttl } sets it as setTtl() does`
        : 'no expiry is kept',
    },
  });
}
