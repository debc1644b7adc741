import type { FieldModel } from '../../model/types';
import { decodeRecord, parseStored } from './codec';
import { indexLayout } from './collection-index';
import type { KeyspaceMapping } from './compile';
import { call, type CallPlace } from './gateway';
import { ensureIndexed } from './index-build';
import { liveMembers } from './index-reads';
import { headHasTag, keyHead } from './keys';
import { matches, whereForms } from './records';
import type { RedisContext } from './repository';
import { hashSlot } from './slots';

/** Record keys read per MGET. */
const READ_CHUNK = 1000;

type Take = (values: Record<string, unknown>) => boolean;
type Forms = ReadonlyArray<readonly [FieldModel, string]>;

/**
 * find() and count(): the live members of the collection index (one slot's when the filter gives
 * the partition), read with MGET a chunk at a time and kept when they hold the filtered values.
 * A member whose key is gone (deleted by another client, evicted) reads as nil and is skipped, so
 * the result is what the database holds. `take` returns false to stop; `limit` (0: none) lets an
 * unfiltered read ask the index for no more members than it needs.
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
  await ensureIndexed(ctx.client, layout, mapping, place);
  const { values, forms } = whereForms(mapping, where);
  const head = keyHead(ctx.prefix, mapping, values);
  const tagged = headHasTag(head);
  const slot = layout.cluster && tagged ? hashSlot(head) : undefined;
  const wanted = forms.length === 0 && !tagged ? limit : 0;
  const members = await liveMembers(ctx.client, layout, mapping, wanted, place, slot);
  const keys = tagged ? members.filter((k) => k.startsWith(head)) : members;
  const first = await readKeys(ctx, mapping, keys, forms, take, place);
  // A limited read met members whose key is gone: the rest of the index may hold the records it lacks.
  if (first.stopped || first.missing === 0 || wanted === 0 || members.length < wanted) return;
  const seen = new Set(keys);
  const rest = (await liveMembers(ctx.client, layout, mapping, 0, place, slot)).filter((k) => !seen.has(k));
  await readKeys(ctx, mapping, rest, forms, take, place);
}

/** MGET of `keys`, a chunk at a time, each record that matches handed to `take` until it says stop. */
async function readKeys(
  ctx: RedisContext,
  mapping: KeyspaceMapping,
  keys: readonly string[],
  forms: Forms,
  take: Take,
  place: CallPlace,
): Promise<{ stopped: boolean; missing: number }> {
  let missing = 0;
  for (let at = 0; at < keys.length; at += READ_CHUNK) {
    const chunk = keys.slice(at, at + READ_CHUNK);
    const texts = await call<Array<string | null>>(ctx.client, ['MGET', ...chunk], place);
    for (const [i, text] of texts.entries()) {
      // Null: the key expired or was deleted after the index was read, or by a client that does not keep it.
      if (text === null) {
        missing += 1;
        continue;
      }
      const key = chunk[i] as string;
      const stored = parseStored(mapping, key, text);
      if (matches(stored, forms) && !take(decodeRecord(mapping, key, stored))) return { stopped: true, missing };
    }
  }
  return { stopped: false, missing };
}
