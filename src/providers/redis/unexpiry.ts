/** explain()'s statement on un-expiry (issue 25): it cannot happen on Redis. */
export const REDIS_UNEXPIRY = {
  possible: false,
  text: 'cannot happen: each key keeps its own absolute expiry, Redis never returns an expired key (passive expiry on access), and the recorded default reaches new writes only, so no change makes an expired key readable again',
} as const;

/** explain()'s price of a touch on read (issue 25). */
export const REDIS_TOUCH = {
  support: 'native',
  how: 'one Lua script per key read (GET, PTTL, PEXPIRE … GT when less than touchBelow × touch remains): atomic, one round trip; a key without expiry is left alone',
} as const;
