import type { FieldModel } from '../../model/types';
import { decodeRecord, parseStored } from './codec';
import { indexLayout } from './collection-index';
import type { KeyspaceMapping } from './compile';
import type { CallPlace } from './gateway';
import { ensureIndexed } from './index-build';
import { liveMembers, type MemberGroup } from './index-reads';
import { headHasTag, keyHead } from './keys';
import { matches, whereForms } from './records';
import type { RedisContext } from './context';
import { hashSlot } from './slots';

/** Record keys read per MGET. */
const READ_CHUNK = 1000;

type Take = (values: Record<string, unknown>) => boolean;
type Forms = ReadonlyArray<readonly [FieldModel, string]>;

/**
 * find() and count(): the live members of the collection index (one slot's when the filter gives
 * the partition), their values read a chunk at a time (MGET; on a cluster a script per primary) and kept when they hold the filtered values.
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
  const groups = await liveMembers(ctx.client, layout, mapping, wanted, place, slot);
  let read = 0;
  let missing = 0;
  const seen = new Set<string>();
  for (const group of groups) {
    const keys = tagged ? group.members.filter((k) => k.startsWith(head)) : group.members;
    read += group.members.length;
    for (const k of keys) seen.add(k);
    const done = await readKeys(mapping, keys, group.values, forms, take);
    missing += done.missing;
    if (done.stopped) return;
  }
  // A limited read met members whose key is gone: the rest of the index may hold the records it lacks.
  if (missing === 0 || wanted === 0 || read < wanted) return;
  for (const group of await liveMembers(ctx.client, layout, mapping, 0, place, slot)) {
    const rest = group.members.filter((k) => !seen.has(k));
    if ((await readKeys(mapping, rest, group.values, forms, take)).stopped) return;
  }
}

/** The values of `keys`, a chunk at a time, each record that matches handed to `take` until it says stop. */
async function readKeys(
  mapping: KeyspaceMapping,
  keys: readonly string[],
  values: MemberGroup['values'],
  forms: Forms,
  take: Take,
): Promise<{ stopped: boolean; missing: number }> {
  let missing = 0;
  for (let at = 0; at < keys.length; at += READ_CHUNK) {
    const chunk = keys.slice(at, at + READ_CHUNK);
    const texts = await values(chunk);
    for (const [i, text] of texts.entries()) {
      // Null: the key expired or was deleted after the index was read, or by a client that does not keep it.
      if (text === null || text === undefined) {
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
