import { instantCountsFrom } from '../../../explain/expiry-member';
import type { EntityModel } from '../../../model/types';

/**
 * What an emulated table's expiry counts from, typed: each write (now + the default TTL), a date
 * member (that member + the default TTL, an explicit anchor), or an @ExpiresAt member's instant
 * itself. The writes read the member from here; only the TTL record and explain() spell it as text.
 */
export type TtlAnchor =
  | { readonly kind: 'write' }
  | { readonly kind: 'member'; readonly member: string }
  | { readonly kind: 'instant'; readonly member: string };

/** A table's default TTL as its writes use it: the seconds and what they count from. */
export interface DefaultTtl {
  readonly seconds: number;
  readonly anchor: TtlAnchor;
}

const EACH_WRITE: TtlAnchor = Object.freeze({ kind: 'write' });

/** The anchor of an entity's TTL: a member only when it is explicit and a default is declared. */
export function ttlAnchorOf(entity: EntityModel): TtlAnchor {
  const ttl = entity.ttl;
  if (ttl?.instantMember) return Object.freeze({ kind: 'instant', member: ttl.instantMember });
  const anchor = ttl?.anchor;
  if (anchor?.source === 'explicit' && ttl?.seconds !== null)
    return Object.freeze({ kind: 'member', member: anchor.member });
  return EACH_WRITE;
}

/**
 * The anchor as the TTL record (a table in the user's database) and explain() write it:
 * 'last-write', 'member:<name>' or 'instant:<name>'. A stored format: it does not change.
 */
export function countsFromText(anchor: TtlAnchor): string {
  switch (anchor.kind) {
    case 'write':
      return 'last-write';
    case 'member':
      return `member:${anchor.member}`;
    case 'instant':
      return instantCountsFrom(anchor.member);
  }
}

/**
 * The anchor a TTL record's text names (countsFromText read back from the user's database), or
 * undefined for a text lifespan does not write (an edited record): the plan then shows it as is.
 */
export function anchorOfCountsFrom(text: string): TtlAnchor | undefined {
  if (text === 'last-write') return EACH_WRITE;
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  const member = text.slice(colon + 1);
  if (colon < 0 || member === '' || (kind !== 'member' && kind !== 'instant')) return undefined;
  return Object.freeze({ kind, member });
}
