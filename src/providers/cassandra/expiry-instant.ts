import { LifespanError, type ErrorPlace } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import { expiryMemberOf, withExpiryMember } from '../../explain/expiry-member';
import type { EntityModel } from '../../model/types';
import type { Params, Row } from './executor';
import type { SessionContext } from './context';
import type { EntityMapping } from './compile';

/** What explain() says about expiry instants on Cassandra (the `{ at }` row and repository.expiresAt()). */
export const INSTANT_SAY = {
  atHow:
    '{ at: Date } → INSERT … USING TTL n with n = the seconds from the current whole second to the instant, rounded up, computed ' +
    "with this process's clock when the write is sent (the node stamps n from its own clock): the row expires " +
    'within about 1 s after the instant, plus the skew between the two clocks; an instant not in the future is ' +
    'refused (never USING TTL 0, which means "never" here)',
  readBack:
    "expiresAt(key): the coordinator's currentTimestamp() + TTL() of the row's cells in one read, precise to 1 s " +
    "(Cassandra keeps a cell's expiry in whole seconds)",
} as const;

/**
 * The longest TTL() among the row's cells that hold a value (lifespan writes one TTL per row; a row
 * written otherwise lives as long as its longest-lived cell): null when one of them never expires.
 */
export function longestCellTtl(row: Row, columns: readonly string[], place: ErrorPlace): number | null {
  let longest: number | undefined;
  for (const [i, column] of columns.entries()) {
    if (row[column] === null || row[column] === undefined) continue;
    const ttl = row[`ttl_${i}`] as number | null;
    if (ttl === null) return null;
    longest = Math.max(longest ?? 0, Number(ttl));
  }
  if (longest === undefined) {
    throw new LifespanError('CASSANDRA_TTL_UNREADABLE', 'every non-key column of this row is null', {
      ...place,
      hint: "Cassandra reports TTL() only for cells that hold a value; the row marker's TTL cannot be read",
    });
  }
  return longest;
}

/**
 * When the row expires, natively: the coordinator's clock at the read (currentTimestamp(), whole
 * seconds as the node counts them) + the remaining TTL() it reports with the same read. null: the
 * row never expires; undefined: no live row. Precise to the second.
 */
export async function readExpiryInstant(
  ctx: SessionContext,
  mapping: EntityMapping,
  keys: Params,
  place: ErrorPlace,
): Promise<Date | null | undefined> {
  const statements = ctx.statements(mapping);
  const columns = statements.ttlColumns().map((c) => c.column);
  if (columns.length === 0) {
    throw new LifespanError('CASSANDRA_TTL_UNREADABLE', 'the table has only key columns', {
      ...place,
      hint: 'Cassandra reports TTL() only for non-key cells; add a non-key member to read the expiry instant',
    });
  }
  const result = await ctx.executor.execute(statements.selectExpiryInstant(), keys, place, 'expiresAt');
  const row = result.rows[0];
  if (!row) return undefined;
  const ttl = longestCellTtl(row, columns, place);
  if (ttl === null) return null;
  const now = row['lifespan_now'] as Date;
  return new Date((Math.floor(now.getTime() / 1000) + ttl) * 1000);
}

/** The explain entry of an @ExpiresAt entity: each write computes USING TTL from the member. */
export function withMemberExpiry(entity: EntityModel, entry: ExplainEntry): ExplainEntry {
  const member = expiryMemberOf(entity);
  if (!member) return entry;
  return withExpiryMember(entry, member, {
    keeps:
      `every write computes INSERT … USING TTL n from ${member} (${INSTANT_SAY.atHow.replace(/^\{ at: Date \} → INSERT … USING TTL n with /, '')}); ` +
      'a null member writes USING TTL 0 (never)',
    plainWrite: `INSERT … USING TTL n, n computed from ${member} at write time (USING TTL 0 for null)`,
  });
}
