import type { SqlQuerySpec } from '@azure/cosmos';
import type { SqlFilter } from './item-expiry';
import type { ItemCodec } from './codec';
import { TYPE_PROPERTY } from './semantics';

export interface QueryShape {
  /** SELECT VALUE COUNT(1) instead of the items. */
  readonly count?: boolean;
  readonly limit?: number | undefined;
  /** Items to leave out (hideExpired): the filter is negated. */
  readonly exclude?: SqlFilter | null;
}

/**
 * A query over one entity's items with equality filters on members. Property names come from the
 * validated model (portable identifiers), so only values are parameters.
 */
export function entityQuery(codec: ItemCodec, where: Record<string, unknown>, shape: QueryShape = {}): SqlQuerySpec {
  const conditions: string[] = [];
  const parameters: Array<{ name: string; value: string | number | boolean | null }> = [];
  for (const [member, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const property = `c["${codec.storedName(member)}"]`;
    if (value === null) {
      conditions.push(`(IS_NULL(${property}) OR NOT IS_DEFINED(${property}))`);
      continue;
    }
    const name = `@p${parameters.length}`;
    parameters.push({ name, value: codec.queryValue(member, value) as string | number | boolean });
    conditions.push(`${property} = ${name}`);
  }
  if (codec.layout.shared) {
    parameters.push({ name: '@type', value: codec.entity.name });
    conditions.push(`c["${TYPE_PROPERTY}"] = @type`);
  }
  if (shape.exclude) {
    conditions.push(`NOT ${shape.exclude.sql}`);
    parameters.push(...shape.exclude.parameters);
  }
  const select = shape.count ? 'SELECT VALUE COUNT(1)' : `SELECT${topOf(shape.limit)} *`;
  const filter = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  return { query: `${select} FROM c${filter}`, parameters };
}

/** The limit was checked by the repository (findLimit), so it is a safe whole number here. */
function topOf(limit: number | undefined): string {
  return limit === undefined ? '' : ` TOP ${limit}`;
}
