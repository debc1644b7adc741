import { UnsupportedTtlError } from '../errors';
import { resolveWriteTtl, describeWriteTtl, type PerWriteTtl, type ResolvedWriteTtl } from '../model/per-write-ttl';
import type { EntityModel } from '../model/types';

/**
 * Resolves a per-write TTL and refuses one on an entity that did not declare `perWrite`. The rule
 * is the same on every store: some stores need the declaration to set up their container or
 * expiry index, so a store that could do without it (one stamping expiry per write) still asks
 * for it — code tested there must not break on a store that needs it.
 */
export function writeTtlFor(entity: EntityModel, requested: PerWriteTtl | undefined, store: string): ResolvedWriteTtl {
  const ttl = resolveWriteTtl(requested);
  if (ttl.kind === 'default' || entity.ttl?.perWrite) return ttl;
  throw new UnsupportedTtlError(
    'TTL_PER_WRITE_NOT_DECLARED',
    `a per-write TTL (${describeWriteTtl(ttl)}) needs the entity to declare per-write TTLs`,
    {
      entity: entity.name,
      store,
      hint: perWriteDeclarationHint(entity),
    },
  );
}

/** What to declare for per-write TTLs; explain() rows and the error say the same. */
export function perWriteDeclarationHint(entity: EntityModel): string {
  const member = entity.ttl?.instantMember;
  if (member) {
    return `${entity.name} expires at its ${member} (@ExpiresAt): set ${member} to the instant and write the record`;
  }
  return `declare @TimeToLive({ ttl: ..., perWrite: true }) or .timeToLive(..., { perWrite: true }) on ${entity.name}`;
}

export function unsupported(
  entity: EntityModel,
  store: string,
  ttl: ResolvedWriteTtl,
  why: string,
  hint: string,
): UnsupportedTtlError {
  return new UnsupportedTtlError(
    'TTL_PER_WRITE_UNSUPPORTED',
    `per-write TTL ${describeWriteTtl(ttl)} is not supported: ${why}`,
    {
      entity: entity.name,
      store,
      hint,
    },
  );
}
