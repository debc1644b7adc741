import type { ExplainEntry } from '../../explain/entry';
import { expiryMemberOf, withExpiryMember } from '../../explain/expiry-member';
import type { EntityModel } from '../../model/types';
import { call, type CallPlace, type RedisClientLike } from './gateway';

/** What explain() says about reading an expiry instant back on Redis. */
export const READ_BACK_SAY =
  'expiresAt(key): PEXPIRETIME (Redis 7.0+), the absolute Unix milliseconds Redis keeps, exact to the millisecond';

/**
 * When the key expires, natively: PEXPIRETIME answers the stored absolute instant in Unix ms
 * (-1: no expiry, -2: no key). One round trip, no clock of this process involved.
 */
export async function readExpiryInstant(
  client: RedisClientLike,
  key: string,
  place: CallPlace,
): Promise<Date | null | undefined> {
  const ms = Number(await call(client, ['PEXPIRETIME', key], place));
  if (ms === -2) return undefined;
  if (ms === -1) return null;
  return new Date(ms);
}

/** The explain entry of an @ExpiresAt entity: every write is SET … PXAT the member's instant. */
export function withMemberExpiry(entity: EntityModel, entry: ExplainEntry): ExplainEntry {
  const member = expiryMemberOf(entity);
  if (!member) return entry;
  return withExpiryMember(entry, member, {
    keeps:
      `every write sends SET … PXAT <${member} in Unix ms> (insert: SET … NX PXAT), exact to the millisecond; ` +
      `a null ${member} is a SET without expiry`,
    plainWrite: `SET key value PXAT <${member} in Unix ms>`,
    mechanism: 'key-expiry',
  });
}
