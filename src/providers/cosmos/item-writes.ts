import type { PatchOperation } from '@azure/cosmos';
import type { StampedWriteTtl } from '../../runtime/write-instant';
import { checkCosmosTtl } from './compile';
import { extendedTtl, isExpired, keptTtl, plainWriteTtl, remainingSeconds, type ContainerTtl } from './item-expiry';
import type { ItemBody } from './codec';
import type { RawItem } from './item-reader';

/** One item write, decided before it is sent (plain data: the repository sends it, a unit of work batches it). */
export type ItemWrite =
  | { readonly op: 'create'; readonly body: ItemBody }
  | { readonly op: 'upsert'; readonly body: ItemBody }
  | { readonly op: 'replace'; readonly body: ItemBody; readonly etag: string };

/** The item as read before an upsert that depends on it, with the container setting and server time. */
export interface CurrentItem {
  readonly raw: RawItem;
  readonly containerTtl: ContainerTtl;
  readonly serverNow: number;
}

/**
 * An upsert that depends on the stored item reads it first: 'keep' and 'extend' (its expiry), and
 * an entity whose stored properties survive an update (`preserved`, e.g. @CreatedAt).
 */
export function needsCurrentItem(
  mode: 'insert' | 'upsert',
  ttl: StampedWriteTtl,
  preserved: readonly string[],
): boolean {
  return mode === 'upsert' && (ttl.kind === 'keep' || ttl.kind === 'extend' || preserved.length > 0);
}

/**
 * The write for a per-write TTL (DESIGN's table): n → ttl: n; 'default' → no ttl property;
 * 'never' → ttl: -1; 'keep' → ttl = the item's remaining seconds (its expiry instant stays);
 * { extend: n } → ttl = max(remaining, n). An upsert that read the item first is a replace on its
 * etag that also carries the `preserved` stored properties over; when the item is absent it is a
 * create (a concurrent creator makes it a 409 the caller retries). An item already due counts as
 * absent: it is replaced as a new item ('keep' → no ttl, { extend: n } → n, fresh @CreatedAt).
 */
export function itemWrite(
  mode: 'insert' | 'upsert',
  body: ItemBody,
  ttl: StampedWriteTtl,
  current?: CurrentItem,
  preserved: readonly string[] = [],
): ItemWrite {
  if (mode === 'insert') return { op: 'create', body: withTtl(body, newItemTtl(ttl)) };
  if (!needsCurrentItem(mode, ttl, preserved)) return { op: 'upsert', body: withTtl(body, newItemTtl(ttl)) };
  if (!current) return { op: 'create', body: withTtl(body, newItemTtl(ttl)) };
  if (isExpired(current.raw, current.containerTtl, current.serverNow)) {
    return { op: 'replace', body: withTtl(body, newItemTtl(ttl)), etag: current.raw._etag };
  }
  const next = updatedTtl(ttl, current);
  return { op: 'replace', body: withTtl(carryOver(body, current.raw, preserved), next), etag: current.raw._etag };
}

function newItemTtl(ttl: StampedWriteTtl): number | undefined {
  if (ttl.kind === 'extend') return ttl.seconds;
  if (ttl.kind === 'keep') return undefined;
  return plainWriteTtl(ttl);
}

function updatedTtl(ttl: StampedWriteTtl, current: CurrentItem): number | undefined {
  if (ttl.kind === 'keep') return keptTtl(current.raw, current.containerTtl, current.serverNow);
  if (ttl.kind === 'extend') return extendedTtl(current.raw, current.containerTtl, ttl.seconds, current.serverNow);
  return plainWriteTtl(ttl);
}

function carryOver(body: ItemBody, stored: RawItem, preserved: readonly string[]): ItemBody {
  const kept: ItemBody = { ...body };
  for (const name of preserved) {
    const value = stored[name];
    if (value !== undefined && value !== null) kept[name] = value;
  }
  return kept;
}

/**
 * The patch setTtl sends, or null when nothing is to be written ('keep': no write, so _ts and the
 * expiry instant stay exactly; 'extend' on an item that never expires). Every patch is a write, so
 * it also resets _ts.
 */
export function ttlPatch(ttl: StampedWriteTtl, current: CurrentItem): PatchOperation[] | null {
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
