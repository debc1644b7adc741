/** explain()'s statement on un-expiry (issue 25): it cannot happen on Cassandra. */
export const CASSANDRA_UNEXPIRY = {
  possible: false,
  text: 'cannot happen: each cell carries the expiry stamped when it was written, Cassandra stops returning an expired cell at once, and ALTER TABLE … default_time_to_live reaches new writes only, so no change makes an expired row readable again',
} as const;

/** explain()'s price of a touch on read (issue 25). */
export const CASSANDRA_TOUCH = {
  support: 'unsupported',
  how: 'refused (UnsupportedTtlError): a cell TTL changes only by rewriting every cell of the row (INSERT … USING TTL), and extending without shortening needs a read-then-write Cassandra cannot make conditional on the TTL; use setTtl(key, duration) where a rewrite is acceptable',
} as const;
