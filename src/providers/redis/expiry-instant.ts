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
