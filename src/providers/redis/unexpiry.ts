/** explain()'s statement on un-expiry (issue 25): it cannot happen on Redis. */
export const REDIS_UNEXPIRY = {
  possible: false,
  text: 'cannot happen: each key keeps its own absolute expiry, Redis never returns an expired key (passive expiry on access), and the recorded default reaches new writes only, so no change makes an expired key readable again',
} as const;
