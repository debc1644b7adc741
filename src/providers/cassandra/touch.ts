import { resolveWriteTtl } from '../../model/per-write-ttl';
import type { EntityModel } from '../../model/types';
import type { CheckedTouch } from '../../runtime/touch';
import { unsupported } from '../../runtime/write-ttl';
import { STORE } from './semantics';

/**
 * A touch on read is refused on Cassandra before anything is read (issue 25): a cell's TTL
 * changes only by rewriting every cell of the row, and an extend that never shortens a later
 * expiry a concurrent write gave cannot be made conditional on the TTL.
 */
export function touchRefused(entity: EntityModel, touch: CheckedTouch): Error {
  return unsupported(
    entity,
    STORE,
    resolveWriteTtl({ extend: touch.seconds }),
    'Cassandra changes a TTL only by rewriting every cell of the row, and cannot make that rewrite conditional on the current TTL, so a touch on read could shorten a later expiry or overwrite a concurrent write',
    'read with get() and, where a rewrite is acceptable, call setTtl(key, duration)',
  );
}
