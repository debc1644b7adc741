import type { SqlQuerySpec } from '@azure/cosmos';
import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/duration';
import { limitArgument } from '../../runtime/arguments';
import type { SqlFilter } from './expiry';
import type { ItemCodec } from './item-codec';
import { STORE, TYPE_PROPERTY } from './semantics';

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
export function entityQuery(codec: ItemCodec, where: object | undefined, shape: QueryShape = {}): SqlQuerySpec {
  const conditions: string[] = [];
  const parameters: Array<{ name: string; value: string | number | boolean | null }> = [];
  if (where !== undefined && where !== null && (typeof where !== 'object' || Array.isArray(where))) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `the filter ${showValue(where)} is not an object`, {
      entity: codec.entity.name,
      store: STORE,
      hint: "pass member → value pairs, e.g. { payload: 'x' }, or nothing for every item",
    });
  }
  for (const [member, value] of Object.entries(where ?? {})) {
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
  const select = shape.count ? 'SELECT VALUE COUNT(1)' : `SELECT${topOf(codec, shape.limit)} *`;
  const filter = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  return { query: `${select} FROM c${filter}`, parameters };
}

function topOf(codec: ItemCodec, limit: number | undefined): string {
  const checked = limitArgument(limit, 'find()', { entity: codec.entity.name, store: STORE });
  return checked === undefined ? '' : ` TOP ${checked}`;
}
