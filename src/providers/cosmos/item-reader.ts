import type { EntityAccess } from './context';
import { driverCall } from './driver-errors';
import { clientNowSeconds, type StoredExpiry } from './item-expiry';
import type { ItemAddress } from './codec';

export type RawItem = StoredExpiry & { readonly id: string; readonly _etag: string } & Record<string, unknown>;

export interface StoredItem {
  readonly raw: RawItem;
  /** The server's clock when it answered (its Date header), the client clock only if absent. */
  readonly serverNow: number;
}

/** Point read of one item of this entity; undefined when absent or written for another entity. */
export async function readItem(access: EntityAccess, address: ItemAddress): Promise<StoredItem | undefined> {
  const response = await driverCall(
    `reading ${access.entity.name} '${address.id}'`,
    { entity: access.entity.name },
    () => access.container.item(address.id, address.partition).read(),
  );
  const serverNow = access.clock.observe(response.headers?.['date']);
  const raw = response.resource as RawItem | undefined;
  if (!raw || !access.codec.owns(raw)) return undefined;
  return { raw, serverNow: serverNow ?? clientNowSeconds() };
}
