import type { ConditionalWriteRow } from '../../explain/entry';
import { conditionalWriteRows, refusedConditionalWrites } from '../../explain/per-write-rows';
import type { EntityMapping } from './compile';

const LWT =
  'a lightweight transaction: a Paxos round (about four round trips to the replicas instead of one); ' +
  'do not mix it with plain writes (upsert(), a unit of work) on the same rows, whose timestamps it does not order';

/** explain()'s rows for update(), delete({ ifVersion }), getOrInsert() and patch() on a Cassandra table. */
export function cassandraConditionalWrites(mapping: EntityMapping): ConditionalWriteRow[] {
  if (mapping.isCounter) {
    return refusedConditionalWrites('a counter table changes by increments only (CASSANDRA_COUNTER_WRITE)');
  }
  const version = mapping.entity.version ?? 'version';
  const versioned = mapping.entity.version !== null;
  return conditionalWriteRows(mapping.entity, {
    update: {
      how: `BEGIN BATCH INSERT INTO … (every other column) [USING TTL ?]; UPDATE … [USING TTL ?] SET ${version} = ? WHERE <key> IF ${version} = ? APPLY BATCH (version 0, a row stored without one: read, then IF <every regular column> = <the value read>): ${LWT}`,
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
        'SELECT with TTL(), then every column written again (an UPDATE of some columns would give those cells their own expiry and tear the row) ' +
        (versioned
          ? `by the conditional batch on the ${version} read (IF ${version} = ?; a row stored without one: IF <every regular column> = <the value read>)`
          : 'by a conditional batch IF <every regular column> = <the value read>') +
        `: a write in between fails the IF and the patch reads again (STORE_WRITE_CONTENDED after 5 tries); ${LWT}`,
      expiry:
        "'keep' by default: the TTL the row's cells have left, read just before (to the second), on every cell; { ttl }: that one TTL. The TTL counts from each write, never from a member, so patching a date member moves no expiry",
    },
  });
}
