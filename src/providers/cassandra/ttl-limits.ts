import { TtlError, type ErrorPlace } from '../../errors';
import { CASSANDRA_MAX_TTL_SECONDS, STORE, isoSeconds } from './semantics';

/** The instant and ceiling a TTL is judged against; both injectable so tests need not wait for 2038. */
export interface TtlClock {
  readonly now: Date;
  /** Latest expiry the node accepts; null: do not check (the caller knows the node has no such limit). */
  readonly ceiling: Date | null;
}

/**
 * Checks a TTL against Cassandra's limits before it reaches the node: the node would reject it
 * (policy REJECT), or with policy CAP silently shorten it, and before 3.0.16/3.11.2 expire it at once.
 * The node's rule (ExpirationDateOverflowHandling): reject when floor(now in s) + ttl > ceiling.
 */
export function checkTtlLimits(seconds: number, clock: TtlClock, place: ErrorPlace, what: string): void {
  if (seconds > CASSANDRA_MAX_TTL_SECONDS) {
    throw new TtlError(
      'CASSANDRA_TTL_TOO_LARGE',
      seconds,
      `${what} ${seconds} s is over Cassandra's maximum TTL of ${CASSANDRA_MAX_TTL_SECONDS} s (20 years)`,
      { ...place, store: STORE, hint: `use at most ${CASSANDRA_MAX_TTL_SECONDS} s` },
    );
  }
  if (clock.ceiling === null) return;
  const room = latestTtlAt(clock.now, clock.ceiling);
  if (seconds > room) {
    const expiry = new Date((Math.floor(clock.now.getTime() / 1000) + seconds) * 1000);
    throw new TtlError(
      'CASSANDRA_TTL_PAST_CEILING',
      seconds,
      `${what} ${seconds} s written now (${isoSeconds(clock.now)}) would expire at ${isoSeconds(expiry)}, ` +
        `past the node's expiration ceiling ${isoSeconds(clock.ceiling)}; the node rejects such writes`,
      {
        ...place,
        store: STORE,
        hint:
          room > 0
            ? `use at most ${room} s today (the allowance shrinks every second); on Cassandra 5.0 with ` +
              `storage_compatibility_mode NONE pass expirationCeiling: new Date('2106-02-07T06:28:13Z')`
            : 'the ceiling has passed: no TTL can be written to this node',
      },
    );
  }
}

/** The largest TTL a write at `now` may carry. */
export function latestTtlAt(now: Date, ceiling: Date): number {
  return Math.floor(ceiling.getTime() / 1000) - Math.floor(now.getTime() / 1000);
}
