import type { PatchOperation } from '@azure/cosmos';
import type { ResolvedWriteTtl } from '../../model/per-write-ttl';
import { checkCosmosTtl } from './compile';
import { extendedTtl, plainWriteTtl, remainingSeconds, type ContainerTtl } from './expiry';
import type { ItemBody } from './item-codec';
import type { RawItem } from './item-reader';

/** One item write, decided before it is sent (plain data: the repository sends it, a unit of work batches it). */
export type ItemWrite =
  | { readonly op: 'create'; readonly body: ItemBody }
  | { readonly op: 'upsert'; readonly body: ItemBody }
  | { readonly op: 'replace'; readonly body: ItemBody; readonly etag: string };

/** The item as read before a 'keep' / 'extend' write, with the container setting and server time. */
export interface CurrentItem {
  readonly raw: RawItem;
  readonly containerTtl: ContainerTtl;
  readonly serverNow: number;
}

/** 'keep' and 'extend' on an upsert depend on the stored item: read it first. */
export function needsCurrentItem(mode: 'insert' | 'upsert', ttl: ResolvedWriteTtl): boolean {
  return mode === 'upsert' && (ttl.kind === 'keep' || ttl.kind === 'extend');
}

/**
 * The write for a per-write TTL (DESIGN's table): n → ttl: n; 'default' → no ttl property;
 * 'never' → ttl: -1; 'keep' → replace on the etag carrying the item's ttl property over;
 * { extend: n } → replace on the etag with ttl = max(remaining, n). On a new item 'keep' writes no
 * ttl and { extend: n } writes ttl: n. `current` is undefined when the item does not exist.
 */
export function itemWrite(
  mode: 'insert' | 'upsert',
  body: ItemBody,
  ttl: ResolvedWriteTtl,
  current?: CurrentItem,
): ItemWrite {
  if (ttl.kind === 'duration' || ttl.kind === 'default' || ttl.kind === 'never') {
    return { op: mode === 'insert' ? 'create' : 'upsert', body: withTtl(body, plainWriteTtl(ttl)) };
  }
  if (mode === 'insert' || !current) {
    return { op: 'create', body: withTtl(body, ttl.kind === 'extend' ? ttl.seconds : undefined) };
  }
  const kept = typeof current.raw.ttl === 'number' ? current.raw.ttl : undefined;
  const next =
    ttl.kind === 'keep' ? kept : extendedTtl(current.raw, current.containerTtl, ttl.seconds, current.serverNow);
  return { op: 'replace', body: withTtl(body, next), etag: current.raw._etag };
}

/**
 * The patch setTtl sends, or null when nothing is to be written ('keep'; 'extend' on an item that
 * never expires). Every patch is a write, so it also resets _ts.
 */
export function ttlPatch(ttl: ResolvedWriteTtl, current: CurrentItem): PatchOperation[] | null {
  switch (ttl.kind) {
    case 'duration':
      return [{ op: 'set', path: '/ttl', value: checkCosmosTtl(ttl.seconds) }];
    case 'never':
      return [{ op: 'set', path: '/ttl', value: -1 }];
    case 'default':
      // Removing an absent path is an error, and the write must still restart the countdown:
      // set then remove, applied atomically in one patch.
      return typeof current.raw.ttl === 'number'
        ? [{ op: 'remove', path: '/ttl' }]
        : [
            { op: 'set', path: '/ttl', value: -1 },
            { op: 'remove', path: '/ttl' },
          ];
    case 'keep':
      return null;
    case 'extend': {
      if (remainingSeconds(current.raw, current.containerTtl, current.serverNow) === null) return null;
      const next = extendedTtl(current.raw, current.containerTtl, ttl.seconds, current.serverNow) as number;
      return [{ op: 'set', path: '/ttl', value: next }];
    }
  }
}

function withTtl(body: ItemBody, ttl: number | undefined): ItemBody {
  const { ttl: _drop, ...rest } = body;
  return ttl === undefined ? (rest as ItemBody) : { ...rest, ttl: checkCosmosTtl(ttl) };
}
