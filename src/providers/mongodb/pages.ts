import { instanceOf } from '../../runtime/entity-values';
import { invalidCursor } from '../../runtime/cursor';
import { runDeleteMany, type DeleteManyRequest } from '../../runtime/delete-many';
import { pageOf, pageRequest } from '../../runtime/pages';
import type { Page } from '../contract';
import type { Doc } from './commands';
import type { CollectionMapping } from './compile';
import { fromDocument, idFromValues, whereFilter } from './documents';
import { withLive } from './expiry-expressions';
import type { BulkOperation, MongoCollectionLike } from './gateway';
import { STORE } from './semantics';

/** What findPage / deleteMany need of a repository: its collection and how it wraps driver failures. */
export interface MongoPages {
  readonly mapping: CollectionMapping;
  readonly collection: MongoCollectionLike;
  guard<R>(operation: string, fn: () => Promise<R>): Promise<R>;
}

const BY_ID = { _id: 1 } as const;

/**
 * Matches that are live at the server's `$$NOW`, whatever the store's hideExpired: an expired
 * record is absent for findPage / iterate / deleteMany on every store (the TTL monitor may not
 * have deleted it yet).
 */
function liveMatches(p: MongoPages, where: Record<string, unknown>): Doc {
  return withLive(whereFilter(p.mapping, where), p.mapping.ttl, true);
}

/** The filter, after `_id` past the previous page (keyset on `_id`, the collection's own index). */
function after(filter: Doc, id: unknown): Doc {
  return id === undefined ? filter : { $and: [filter, { _id: { $gt: id } }] };
}

function readPage(p: MongoPages, filter: Doc, limit: number): Promise<Doc[]> {
  return p.guard('findPage', () => p.collection.find(filter, { useBigInt64: true, limit, sort: BY_ID }).toArray());
}

/** findPage(): live documents in `_id` order, one more than asked read to know whether a page follows. */
export async function mongoPage<T>(p: MongoPages, where: unknown, options: unknown): Promise<Page<T>> {
  const scope = { store: STORE, entity: p.mapping.entity.name, collection: p.mapping.collection };
  const request = pageRequest(where, options, scope, (raw) => checkedId(p.mapping, raw));
  const docs = await readPage(p, after(liveMatches(p, request.where), request.position), request.limit + 1);
  const items = docs.slice(0, request.limit);
  const last = items[items.length - 1];
  const values = items.map((d) => fromDocument(p.mapping, d));
  const lastValues = values[values.length - 1];
  // The key's member values, not the BSON `_id`: the cursor holds plain values, and the next
  // page's bound is built by the same id builder as every other `_id`.
  const next =
    docs.length > request.limit && last && lastValues ? p.mapping.key.map((k) => lastValues[k.member]) : undefined;
  const entities = values.map((v) => instanceOf<T>(p.mapping.entity, v));
  return pageOf(entities, next, request);
}

/** A cursor's key member values (in key order, each of its type), as the `_id` they address. */
function checkedId(mapping: CollectionMapping, raw: unknown): unknown {
  const place = { entity: mapping.entity.name, store: STORE };
  if (!Array.isArray(raw) || raw.length !== mapping.key.length) {
    throw invalidCursor(`does not hold a key of ${mapping.entity.name}`, place);
  }
  try {
    return idFromValues(mapping, Object.fromEntries(mapping.key.map((k, i) => [k.member, raw[i]])));
  } catch {
    throw invalidCursor(`does not hold a key of ${mapping.entity.name}`, place);
  }
}

/**
 * deleteMany(): batches of matching documents in `_id` order, each deleted only while it is still
 * the document selected (the whole document compared, `$$ROOT`) and still live: a document
 * rewritten after the selection survives. One unordered bulk write per batch.
 */
export function mongoDeleteMany(p: MongoPages, request: DeleteManyRequest): Promise<number> {
  const matches = liveMatches(p, request.where);
  return runDeleteMany<Doc, unknown>(
    {
      async select(last, size) {
        const docs = await readPage(p, after(matches, last), size);
        const tail = docs[docs.length - 1];
        return { picked: docs, next: docs.length === size && tail ? tail['_id'] : undefined };
      },
      async remove(picked) {
        const operations: BulkOperation[] = picked.map((doc) => ({
          deleteOne: {
            filter: { $and: [matches, { _id: doc['_id'] }, { $expr: { $eq: ['$$ROOT', { $literal: doc }] } }] },
          },
        }));
        const result = await p.guard('deleteMany', () => p.collection.bulkWrite(operations, { ordered: false }));
        return Number((result as { deletedCount?: unknown } | null)?.deletedCount ?? 0);
      },
    },
    request,
  );
}
