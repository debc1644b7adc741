/** explain()'s statement on un-expiry (issue 25): it cannot happen on Cassandra. */
export const CASSANDRA_UNEXPIRY = {
  possible: false,
  text: 'cannot happen: each cell carries the expiry stamped when it was written, Cassandra stops returning an expired cell at once, and ALTER TABLE … default_time_to_live reaches new writes only, so no change makes an expired row readable again',
} as const;
