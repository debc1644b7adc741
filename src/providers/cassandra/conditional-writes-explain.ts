import type { ConditionalWriteRow } from '../../explain/entry';
import { conditionalWriteRows } from '../../explain/per-write-rows';
import type { EntityMapping } from './compile';

const LWT =
  'a lightweight transaction: a Paxos round (about four round trips to the replicas instead of one); ' +
  'do not mix it with plain writes (upsert(), a unit of work) on the same rows, whose timestamps it does not order';

/** explain()'s rows for update(), delete({ ifVersion }), getOrInsert() and patch() on a Cassandra table. */
export function cassandraConditionalWrites(mapping: EntityMapping): ConditionalWriteRow[] {
  const version = mapping.entity.version ?? 'version';
  const versioned = mapping.entity.version !== null;
  return conditionalWriteRows({
    update: {
      how: `BEGIN BATCH INSERT INTO … (every other column) [USING TTL ?]; UPDATE … [USING TTL ?] SET ${version} = ? WHERE <key> IF ${version} = ? APPLY BATCH: ${LWT}`,
      expiry:
        "every cell and the row marker get the write's one TTL (by default the table default): the row expires as a whole; 'keep' and { extend } are not supported",
    },
    'delete-if-version': { how: `DELETE FROM … WHERE <key> IF ${version} = ?: ${LWT}`, expiry: 'none' },
    getOrInsert: {
      how: `INSERT … IF NOT EXISTS: ${LWT}; when not applied the reply holds the live row. Expired cells are invisible, so an expired row is absent`,
      expiry: 'the new row gets its TTL; a live row is returned untouched',
    },
    patch: {
      how:
        'SELECT with TTL() and WRITETIME(), then every column written again (an UPDATE of some columns would give those cells their own expiry and tear the row): ' +
        (versioned
          ? `the conditional batch on the ${version} read (${LWT})`
          : 'INSERT … USING TTL ? AND TIMESTAMP <newest cell + 1 µs>, so a write landing in between still wins'),
      expiry:
        "'keep' by default: the TTL the row's cells have left, read just before (to the second), on every cell; { ttl }: that one TTL",
    },
  });
}
