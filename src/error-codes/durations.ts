import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes of durations and per-write TTL values. Each row's TSDoc is its meaning in docs/errors.md. */
export const DURATION_CODES = {
  /** A duration in years or months, which have no fixed length in seconds. */
  TTL_CALENDAR_UNIT: { family: 'TtlError', exit: 'model' },
  /** An empty duration. */
  TTL_EMPTY: { family: 'TtlError', exit: 'model' },
  /** A duration that is not a whole number of seconds. */
  TTL_FRACTIONAL: { family: 'TtlError', exit: 'model' },
  /** A per-write TTL that mixes 'extend' with other keys. */
  TTL_INVALID_EXTEND: { family: 'TtlError', exit: 'model' },
  /** A duration object with a part that is not a number ≥ 0. */
  TTL_INVALID_PART: { family: 'TtlError', exit: 'model' },
  /** A TTL value of a kind that is not a duration. */
  TTL_INVALID_TYPE: { family: 'TtlError', exit: 'model' },
  /** A duration string without a unit. */
  TTL_NO_UNIT: { family: 'TtlError', exit: 'model' },
  /** A duration that is NaN. */
  TTL_NOT_A_NUMBER: { family: 'TtlError', exit: 'model' },
  /** A duration that is not finite. */
  TTL_NOT_FINITE: { family: 'TtlError', exit: 'model' },
  /** A duration of zero or less where a positive one is needed. */
  TTL_NOT_POSITIVE: { family: 'TtlError', exit: 'model' },
  /** A duration over the largest TTL lifespan accepts (2^31-1 s). */
  TTL_TOO_LARGE: { family: 'TtlError', exit: 'model' },
  /** A duration string in a format lifespan does not read (e.g. ',' as the decimal sign). */
  TTL_UNKNOWN_FORMAT: { family: 'TtlError', exit: 'model' },
  /** A duration with an unknown unit. */
  TTL_UNKNOWN_UNIT: { family: 'TtlError', exit: 'model' },
  /** A per-write TTL on an entity that does not declare per-write TTLs. */
  TTL_PER_WRITE_NOT_DECLARED: { family: 'UnsupportedTtlError', exit: 'model' },
  /** A per-write TTL kind this store cannot honour. */
  TTL_PER_WRITE_UNSUPPORTED: { family: 'UnsupportedTtlError', exit: 'model' },
  /** setTtl() on a store that cannot change one record's expiry. */
  TTL_SET_UNSUPPORTED: { family: 'UnsupportedTtlError', exit: 'model' },

  // Expiry instants ({ at: Date }, @ExpiresAt).
  /** A per-write `{ at }` whose value is not a valid Date, or that mixes 'at' with other keys. */
  TTL_INVALID_AT: { family: 'TtlError', exit: 'model' },
  /** An expiry instant that is not in the future (it would expire the record at once, or mean "never" on Cassandra). */
  TTL_AT_NOT_FUTURE: { family: 'TtlError', exit: 'model' },
  /** An expiry instant beyond what the store can hold (its TTL limit, as computed at write time). */
  TTL_AT_TOO_LATE: { family: 'TtlError', exit: 'model' },
} as const satisfies Record<string, ErrorCodeSpec>;
