import { showValue } from './show-value';
import type { FieldType } from './types';
import type { DurationParts, DurationString } from './duration';

/**
 * What decorators and fluent calls record before anything is checked. Decorators and the fluent
 * builder each fill one draft per class; `build()` lays the fluent draft over the decorated one
 * and validates the result.
 */
export interface FieldOptions {
  /** Value kind; required when the code is compiled without decorator metadata (esbuild, Vite). */
  readonly type?: FieldType;
  /** Column / attribute name in the store (default: the member name). */
  readonly name?: string;
  readonly nullable?: boolean;
}

/** Option values are kept as given (unknown): decorators only record, build() checks them. */
export interface FieldDraft {
  type?: FieldType;
  /** The `design:type` constructor TypeScript emitted, when it did. */
  designType?: unknown;
  storedName?: unknown;
  nullable?: unknown;
}

export interface KeyDraft {
  /** @PartitionKey members (distribution). */
  partition: string[];
  /**
   * @ClusteringKey members, and @Key members in declaration order marked `identity` (build() turns
   * those into clustering members when a @PartitionKey exists). `order` as given; build() checks it.
   */
  clustering: Array<{ member: string; order: unknown; identity?: true }>;
  /** @Key members (identity); alone they are the partition key. */
  identity: string[];
}

export interface TtlOptions<D extends string = string> {
  /** Default lifetime of every record (a literal text is checked as DurationText). Optional when only per-write TTLs are wanted. */
  readonly ttl?: number | DurationString<D> | DurationParts;
  /** Writes may carry their own TTL; stores that need schema setup for it prepare it. */
  readonly perWrite?: boolean;
  /** Date member the TTL counts from on stores that anchor expiry to a document value. */
  readonly member?: string;
  /** Field holding a per-record absolute expiry instant (default 'expiresAt'). */
  readonly expiryField?: string;
}

export interface TtlDraft {
  readonly value: unknown;
  readonly hasValue: boolean;
  readonly perWrite: boolean;
  readonly anchor: string | undefined;
  readonly expiryField: string | undefined;
  /** Where it was declared, for messages. */
  readonly origin: string;
  /** Unknown keys or wrongly typed options, reported by build(). */
  readonly optionProblems: readonly string[];
}

export interface EntityDraft {
  collection?: string;
  fields: Map<string, FieldDraft>;
  key?: KeyDraft;
  createdAt?: string;
  updatedAt?: string;
  /** Every TTL declaration seen; more than one from the same source is a model problem. */
  ttl: TtlDraft[];
  /** Every @Version / .version() member seen, in order; more than one is a model problem. */
  versions: string[];
  /** @ExpiresAt / .expiresAt() members, in declaration order (more than one is a model problem). */
  expiresAt?: string[];
}

export function emptyDraft(): EntityDraft {
  return { fields: new Map(), ttl: [], versions: [] };
}

export function cloneDraft(draft: EntityDraft): EntityDraft {
  const copy: EntityDraft = {
    fields: new Map([...draft.fields].map(([k, v]) => [k, { ...v }])),
    ttl: [...draft.ttl],
    versions: [...draft.versions],
  };
  if (draft.collection !== undefined) copy.collection = draft.collection;
  if (draft.key) {
    copy.key = {
      partition: [...draft.key.partition],
      clustering: [...draft.key.clustering],
      identity: [...draft.key.identity],
    };
  }
  if (draft.createdAt !== undefined) copy.createdAt = draft.createdAt;
  if (draft.updatedAt !== undefined) copy.updatedAt = draft.updatedAt;
  if (draft.expiresAt !== undefined) copy.expiresAt = [...draft.expiresAt];
  return copy;
}

export function fieldDraft(draft: EntityDraft, member: string): FieldDraft {
  let field = draft.fields.get(member);
  if (!field) {
    field = {};
    draft.fields.set(member, field);
  }
  return field;
}

export function applyFieldOptions(field: FieldDraft, options: FieldOptions | undefined): void {
  if (!options) return;
  if (options.type !== undefined) field.type = options.type;
  if (options.name !== undefined) field.storedName = options.name;
  if (options.nullable !== undefined) field.nullable = options.nullable;
}

export function keyDraft(draft: EntityDraft): KeyDraft {
  draft.key ??= emptyKeyDraft();
  return draft.key;
}

export function emptyKeyDraft(): KeyDraft {
  return { partition: [], clustering: [], identity: [] };
}

/** @Key / .key(): identity. Recorded in both lists so declaration order survives into the clustering key. */
export function addIdentityMember(key: KeyDraft, member: string): void {
  key.identity.push(member);
  key.clustering.push({ member, order: 'asc', identity: true });
}

export function ttlDraftFrom(input: unknown, origin: string, anchor?: string): TtlDraft {
  const optionKeys = typeof input === 'object' && input !== null ? ownKeys(input) : [];
  if (!optionKeys.some((k) => TTL_OPTION_KEYS.has(k))) {
    return {
      value: input,
      hasValue: true,
      perWrite: false,
      anchor,
      expiryField: undefined,
      origin,
      optionProblems: [],
    };
  }
  const problems: string[] = [];
  const options = readOptions(input as object, optionKeys, problems);
  return {
    value: options.ttl,
    hasValue: options.ttl !== undefined,
    perWrite: options.perWrite === true,
    anchor: anchor ?? (typeof options.member === 'string' ? options.member : undefined),
    expiryField: typeof options.expiryField === 'string' ? options.expiryField : undefined,
    origin,
    optionProblems: [...problems, ...ttlOptionProblems(options, optionKeys)],
  };
}

const TTL_OPTION_KEYS = new Set(['ttl', 'perWrite', 'member', 'expiryField']);

/** Own string keys; an object whose keys cannot be listed (a hostile proxy) has none. */
function ownKeys(value: object): string[] {
  try {
    return Object.keys(value);
  } catch {
    return [];
  }
}

/** Each known option read once; a getter that throws is a problem, not a crash at decoration time. */
function readOptions(input: object, keys: readonly string[], problems: string[]): Record<string, unknown> {
  const options: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of keys) {
    if (!TTL_OPTION_KEYS.has(key)) continue;
    try {
      options[key] = (input as Record<string, unknown>)[key];
    } catch (error) {
      problems.push(
        `TTL option ${key} throws when read (${showValue(error instanceof Error ? error.message : error)})`,
      );
    }
  }
  return options;
}

/** What is wrong with an options object: unknown keys (typos, duration parts mixed in) and bad types. */
function ttlOptionProblems(options: Record<string, unknown>, keys: readonly string[]): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    if (TTL_OPTION_KEYS.has(key)) continue;
    const hint = ['days', 'hours', 'minutes', 'seconds'].includes(key)
      ? `put the duration in ttl, e.g. { ttl: { ${key}: … } }`
      : `known options: ${[...TTL_OPTION_KEYS].join(', ')}`;
    problems.push(`TTL option '${key}' is not an option (${hint})`);
  }
  if (options.perWrite !== undefined && typeof options.perWrite !== 'boolean') {
    problems.push(`TTL option perWrite must be true or false, not ${showValue(options.perWrite)}`);
  }
  for (const key of ['member', 'expiryField']) {
    if (options[key] !== undefined && typeof options[key] !== 'string') {
      problems.push(`TTL option ${key} must be a member name (a string), not ${showValue(options[key])}`);
    }
  }
  return problems;
}
