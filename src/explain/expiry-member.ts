import type { EntityModel } from '../model/types';
import type { ChangeEffectKind, ExplainEntry, Mechanism } from './entry';

/**
 * What every store's explain() says alike about an entity whose expiry is a member's instant
 * (@ExpiresAt); each store adds how it keeps that instant.
 */
export function expiryMemberOf(entity: EntityModel): string | null {
  return entity.ttl?.instantMember ?? null;
}

/** The explain entry's countsFrom for an expiry member (the snapshot and diff compare it). */
export function instantCountsFrom(member: string): string {
  return `instant:${member}`;
}

/** How one store keeps an expiry member's instant, in its own words. */
export interface MemberExpiryFacts {
  /** E.g. "each write sends SET … PXAT <the member's Unix ms>". */
  readonly keeps: string;
  /** The per-write 'default' row: what a plain write does with the member. */
  readonly plainWrite: string;
  readonly mechanism?: Mechanism;
  /** Where the store re-judges stored records (a TTL index on the member itself); default: new writes only. */
  readonly changeEffect?: { readonly kind: ChangeEffectKind; readonly text: string };
}

/** An entry for an @ExpiresAt entity: the store's entry with the member's lifetime, countsFrom and plain-write row. */
export function withExpiryMember(entry: ExplainEntry, member: string, facts: MemberExpiryFacts): ExplainEntry {
  return {
    ...entry,
    mechanism: facts.mechanism ?? entry.mechanism,
    countsFrom: instantCountsFrom(member),
    perWrite: entry.perWrite.map((row) =>
      row.value === 'default'
        ? { ...row, how: `the instant in ${member}: ${facts.plainWrite}; null: never expires` }
        : row,
    ),
    changeEffect: facts.changeEffect ?? {
      kind: 'new-writes-only',
      text:
        `each write stamps the instant in ${member}: records written before a change (to or from @ExpiresAt, or of ` +
        `${member} itself) keep the expiry they were written with until they are written again`,
    },
    text:
      `${entry.collection}: each record expires at the instant in ${member} (@ExpiresAt; null: never expires): ` +
      `${facts.keeps}. A write refuses a ${member} that is not in the future; changing ${member} moves the ` +
      'expiry on the next write; per-write TTLs and setTtl are refused (the member is the one place the expiry lives).',
  };
}
