import 'reflect-metadata';
import model, { Cart, CacheEntry, Session } from '../../examples/models';
import { compileModel, type CollectionMapping } from '../../src/providers/mongodb/compile';
import type { LiveCollection, LiveIndex, LiveSchema } from '../../src/providers/mongodb/inspect';

export { model, Cart, CacheEntry, Session };

export const compiled = compileModel(model);

export function mapping(entity: string): CollectionMapping {
  const found = compiled.mappings.find((m) => m.entity.name === entity);
  if (!found) throw new Error(`no mapping for ${entity}`);
  return found;
}

export const ID_INDEX: LiveIndex = {
  name: '_id_',
  key: { _id: 1 },
  hasTtl: false,
  expireAfterSeconds: undefined,
  partial: false,
};

export function ttlIndex(field: string, expireAfterSeconds: unknown, extra: Partial<LiveIndex> = {}): LiveIndex {
  return { name: `${field}_1`, key: { [field]: 1 }, hasTtl: true, expireAfterSeconds, partial: false, ...extra };
}

export function plainIndex(field: string, extra: Partial<LiveIndex> = {}): LiveIndex {
  return {
    name: `${field}_1`,
    key: { [field]: 1 },
    hasTtl: false,
    expireAfterSeconds: undefined,
    partial: false,
    ...extra,
  };
}

export function liveWith(
  collection: string,
  indexes: LiveIndex[] | null,
  serverVersion: string | null = '7.0.2',
): LiveSchema {
  const collections: LiveCollection[] =
    indexes === null ? [] : [{ name: collection, exists: true, indexes: [ID_INDEX, ...indexes] }];
  return { serverVersion, collections };
}
