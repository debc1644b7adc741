/**
 * Where a written row's expiry comes from: `now + seconds` on the database clock, or a value
 * bound as is (an injected clock's instant, an anchored instant, or NULL).
 */
export type ExpirySource = 'nowPlus' | 'value';

/** What an upsert does to the expiry of a live row it overwrites. */
export type ConflictRule = 'replace' | 'keep' | 'extend';

/** How one write sets expires_at: the value for a new row, and the rule for a live row it overwrites. */
export interface WriteExpiry {
  readonly source: ExpirySource;
  readonly rule: ConflictRule;
  /** For source 'nowPlus': whole seconds added to the database clock. */
  readonly seconds?: number;
  /** For source 'value': the encoded instant, or null (never expires). */
  readonly value?: unknown;
}
