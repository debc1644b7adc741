import { decodeRecord, parseStored } from './codec';
import { indexLayout, type IndexLayout } from './collection-index';
import type { KeyspaceMapping } from './compile';
import type { CallPlace } from './gateway';
import { ensureIndexed } from './index-build';
import { forgetIndexed } from './index-marker';
import { walkIndex, type IndexReadCost, type WalkScope } from './index-reads';
import { headHasTag, keyHead } from './keys';
import { matches, whereForms } from './records';
import type { RedisContext } from './context';
import { hashSlot } from './slots';

type Take = (values: Record<string, unknown>) => boolean;

/**
 * find() and count(): the live members of the collection index (one slot's when the filter gives
 * the partition), a page at a time, each member's value read in the same script as the page
 * (index-reads.ts), kept when it holds the filtered values. A member whose key is gone (expired,
 * deleted by another client, evicted) is left out by that script, so the result is what the
 * database holds, and a limited read simply goes on to the next page; the read then removes such
 * members from the index (a bounded prune per page, index-reads.ts), so the next read does not pay
 * for them again and the index holds about the live records. `take` returns false to stop; `limit` (0:
 * none) sizes the pages of a read without a filter.
 */
export async function readCollection(
  ctx: RedisContext,
  mapping: KeyspaceMapping,
  where: Record<string, unknown>,
  limit: number,
  take: Take,
  place: CallPlace,
): Promise<void> {
  const layout = indexLayout(ctx.client, ctx.prefix);
  const { values, forms } = whereForms(mapping, where);
  const head = keyHead(ctx.prefix, mapping, values);
  const tagged = headHasTag(head);
  const slot = layout.cluster && tagged ? hashSlot(head) : undefined;
  // Without a filter every live member is a record: a limited read needs pages of its limit only.
  const scope = { slot, pageSize: forms.length === 0 && !tagged && limit > 0 ? limit : undefined };
  // A lost index is found by the first page (nothing read yet): built again, then read once more.
  for (let attempt = 0; attempt < 2; attempt++) {
    await ensureIndexed(ctx.client, layout, mapping, place);
    const cost = await readPages(ctx, layout, mapping, head, tagged, forms, take, place, scope);
    if (!cost.lost) return;
    forgetIndexed(ctx.client, layout, mapping);
  }
}

function readPages(
  ctx: RedisContext,
  layout: IndexLayout,
  mapping: KeyspaceMapping,
  head: string,
  tagged: boolean,
  forms: ReturnType<typeof whereForms>['forms'],
  take: Take,
  place: CallPlace,
  scope: WalkScope,
): Promise<IndexReadCost> {
  return walkIndex(
    ctx.client,
    layout,
    mapping,
    'values',
    place,
    (page) => {
      for (const [key, text] of page.entries) {
        if (tagged && !key.startsWith(head)) continue;
        const stored = parseStored(mapping, key, String(text));
        if (matches(stored, forms) && !take(decodeRecord(mapping, key, stored))) return false;
      }
      return true;
    },
    scope,
  );
}
