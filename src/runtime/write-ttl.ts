import { UnsupportedTtlError } from '../errors';
import { resolveWriteTtl, describeWriteTtl, type PerWriteTtl, type ResolvedWriteTtl } from '../model/per-write-ttl';
import type { EntityModel } from '../model/types';

/**
 * Resolves a per-write TTL and, for stores that need per-write TTL set up in the schema
 * (`requiresDeclaration`), refuses one on an entity that did not declare `perWrite`.
 */
export function writeTtlFor(
  entity: EntityModel,
  requested: PerWriteTtl | undefined,
  store: string,
  requiresDeclaration: boolean,
): ResolvedWriteTtl {
  const ttl = resolveWriteTtl(requested);
  if (ttl.kind === 'default' || !requiresDeclaration || entity.ttl?.perWrite) return ttl;
  throw new UnsupportedTtlError(
    'TTL_PER_WRITE_NOT_DECLARED',
    `a per-write TTL (${describeWriteTtl(ttl)}) needs the entity to declare per-write TTLs`,
    {
      entity: entity.name,
      store,
      hint: `declare @TimeToLive({ ttl: ..., perWrite: true }) or .timeToLive(..., { perWrite: true }) on ${entity.name}`,
    },
  );
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
