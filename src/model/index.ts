export * from './types';
export { ModelBuilder } from './model-builder';
export { EntityConfigurator } from './entity-configurator';
export type { FieldOptions, TtlOptions } from './draft';
export type { MemberSelector } from './member-selector';
export { parseDuration, formatDuration, MAX_TTL_SECONDS, type DurationInput, type DurationParts } from './duration';
export {
  resolveWriteTtl,
  describeWriteTtl,
  WRITE_TTL_KINDS,
  type PerWriteTtl,
  type ResolvedWriteTtl,
  type WriteTtlKind,
} from './per-write-ttl';
export { isPortableIdentifier } from './identifiers';
