/** explain()'s statements on un-expiry (issue 25). */
export const RELATIONAL_UNEXPIRY = {
  emulated: {
    possible: true,
    text: 'turning TTL emulation off stops filtering expires_at: rows due but not yet purged are read again; the plan step that says so (keep- or drop-expiry-column) needs allowUnexpiry (CLI: --allow-unexpiry). A TTL change reaches new writes only and brings nothing back',
  },
  ignored: {
    possible: false,
    text: 'cannot happen: nothing expires on this table (TTL ignored), so nothing can come back',
  },
} as const;

/** explain()'s price of a touch on read (issue 25). */
export const RELATIONAL_TOUCH = {
  support: 'conditional-write',
  how: 'the read, then for a row under the threshold one UPDATE of expires_at only, to the later of it and now + touch (setTtl { extend }): the row is not rewritten, so a concurrent write is never lost',
} as const;
