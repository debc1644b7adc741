import type { SqlQuerySpec } from '@azure/cosmos';
import { instanceOf } from '../../runtime/entity-values';
import { causeMessages, invalidCursor, resumeFrom } from '../../runtime/cursor';
import { sumBounded } from '../../runtime/bounded';
import { runDeleteMany, type DeleteManyRequest } from '../../runtime/delete-many';
import { pageOf, pageRequest } from '../../runtime/pages';
import type { Page } from '../contract';
import type { EntityAccess } from './context';
import { driverCall, NOT_FOUND, PRECONDITION_FAILED, statusOf, wrapDriverError } from './driver-errors';
import type { SqlFilter } from './item-expiry';
import { entityQuery } from './query';
import { STORE } from './semantics';

/** What findPage / deleteMany need of a repository: the entity's container and its expiry filter. */
export interface CosmosPages {
  readonly access: EntityAccess;
  /** hideExpired: the items to leave out, judged by the server clock now (null: none). */
  hidden(): Promise<SqlFilter | null>;
}

/**
 * The service's part of a continuation token is capped at this many KB per query
 * (FeedOptions.continuationTokenLimitInKB, sent as x-ms-documentdb-responsecontinuationtokenlimitinkb);
 * the SDK's cross-partition token wraps one such part per partition key range it still has to read.
 */
const TOKEN_LIMIT_KB = 4;

/** Partition key ranges one cross-partition token may name, with room to spare: a longer token is no token of a page. */
const RANGES_PER_TOKEN = 32;

const MAX_TOKEN = TOKEN_LIMIT_KB * 1024 * RANGES_PER_TOKEN;

const BAD_REQUEST = 400;

/** The SDK's or the service's refusal of a continuation token it did not make. */
function refusedToken(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return (
    statusOf(error) === BAD_REQUEST || statusOf(cause) === BAD_REQUEST || /continuation/i.test(causeMessages(error))
  );
}

type RawItem = Record<string, unknown> & { readonly _etag?: string };

async function queryPage(p: CosmosPages, where: Record<string, unknown>, limit: number, token: string | undefined) {
  const spec: SqlQuerySpec = entityQuery(p.access.codec, where, { exclude: await p.hidden() });
  const name = p.access.entity.name;
  const response = await driverCall(`querying ${name}`, { entity: name }, () =>
    p.access.container.items
      .query<RawItem>(spec, {
        maxItemCount: limit,
        continuationTokenLimitInKB: TOKEN_LIMIT_KB,
        ...(token === undefined ? {} : { continuationToken: token }),
      })
      .fetchNext(),
  );
  return { items: response.resources, next: response.continuationToken ?? undefined };
}

/**
 * findPage(): one page of the query's own continuation (maxItemCount = limit). The service leaves
 * expired items out (with hideExpired lifespan also does, by the server clock of this page). A
 * page across partitions may hold fewer items than asked, even none, and still have a cursor.
 */
export async function cosmosPage<T>(p: CosmosPages, where: unknown, options: unknown): Promise<Page<T>> {
  const { entity, codec } = p.access;
  const scope = { store: STORE, entity: entity.name, collection: codec.layout.container };
  const request = pageRequest(where, options, scope, (raw) => {
    if (typeof raw === 'string' && raw.length > 0 && raw.length <= MAX_TOKEN) return raw;
    throw invalidCursor('does not hold a Cosmos DB continuation token', { entity: entity.name, store: STORE });
  });
  const { items, next } = await resumeFrom(
    request.position !== undefined,
    () => queryPage(p, request.where, request.limit, request.position),
    refusedToken,
    'a continuation token',
    { entity: entity.name, store: STORE },
  );
  return pageOf(
    items.map((raw) => instanceOf<T>(entity, codec.decode(raw))),
    next,
    request,
  );
}

/**
 * deleteMany(): pages of the matching items, each deleted If-Match its `_etag` as selected: an
 * item rewritten after the selection has a new etag, the service answers 412 and it survives.
 * Only deletes the service confirmed are counted.
 */
export function cosmosDeleteMany(p: CosmosPages, request: DeleteManyRequest): Promise<number> {
  const { entity, codec, container } = p.access;
  return runDeleteMany<RawItem, string>(
    {
      select: async (after, size) => {
        const { items, next } = await queryPage(p, request.where, size, after);
        return { picked: items, next };
      },
      async remove(picked) {
        return sumBounded(picked, async (raw) => {
          const address = codec.address(codec.decode(raw));
          try {
            await container.item(address.id, address.partition).delete({
              accessCondition: { type: 'IfMatch', condition: String(raw._etag) },
            });
            return 1;
          } catch (error) {
            const status = statusOf(error);
            if (status === NOT_FOUND || status === PRECONDITION_FAILED) return 0;
            throw wrapDriverError(error, `deleting ${entity.name} '${address.id}'`, { entity: entity.name });
          }
        });
      },
    },
    request,
  );
}
