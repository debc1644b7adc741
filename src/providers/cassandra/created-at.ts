import type { ErrorPlace } from '../../errors';
import type { EntityMapping } from './compile';
import type { SessionContext } from './context';
import type { Params } from './executor';
import { keyOfRow } from './rows';
import { writePlanOf } from './write-plan';

/**
 * Where the @CreatedAt value sits in an INSERT's bound values, when an overwrite must keep the
 * stored one; undefined when the entity has no @CreatedAt (or it is a key column, which an
 * overwrite cannot change anyway).
 */
export function createdAtIndex(mapping: EntityMapping): number | undefined {
  return writePlanOf(mapping).keptCreatedAt;
}

/**
 * Puts the stored @CreatedAt of the row an upsert overwrites into its bound values (`params`, as
 * rowParams made them, in place); a row that does not exist (or has expired) keeps the stamped one.
 *
 * Why a read and not just an INSERT without that column: the INSERT stamps every cell it names,
 * and the row marker, with this write's TTL. A createdAt cell left out would keep the expiry of the
 * write that made it, so the row would no longer expire as a whole (it would outlive its other
 * cells, or lose its createdAt before them). Written again with the rest, every cell expires at
 * the same second.
 *
 * Not atomic with the write: a delete of the row that lands between the two is undone by the
 * write (as with any upsert after a delete), but the row comes back with the createdAt it had.
 * The read runs at the stronger of the store's read and write levels (readBeforeWrite).
 */
export async function keepStoredCreatedAt(
  ctx: SessionContext,
  mapping: EntityMapping,
  params: Params,
  place: ErrorPlace,
): Promise<void> {
  const index = createdAtIndex(mapping);
  const column = index === undefined ? undefined : mapping.columns[index];
  if (index === undefined || column === undefined) return;
  const query = ctx.statements(mapping).selectColumn(column);
  const result = await ctx.executor.readForWrite(query, keyOfRow(mapping, params), place, 'upsert (reading createdAt)');
  const stored = result.rows[0]?.[column.column] as unknown;
  if (stored instanceof Date) params[index] = stored;
}
