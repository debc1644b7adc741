import type { ClusteringMember, FieldType } from './types';

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

export interface FieldDraft {
  type?: FieldType;
  /** The `design:type` constructor TypeScript emitted, when it did. */
  designType?: unknown;
  storedName?: string;
  nullable?: boolean;
}

export interface KeyDraft {
  partition: string[];
  clustering: ClusteringMember[];
}

export interface TtlOptions {
  /** Default lifetime of every record. Optional when only per-write TTLs are wanted. */
  readonly ttl?: unknown;
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
}

export interface EntityDraft {
  collection?: string;
  fields: Map<string, FieldDraft>;
  key?: KeyDraft;
  createdAt?: string;
  updatedAt?: string;
  /** Every TTL declaration seen; more than one from the same source is a model problem. */
  ttl: TtlDraft[];
}

export function emptyDraft(): EntityDraft {
  return { fields: new Map(), ttl: [] };
}

export function cloneDraft(draft: EntityDraft): EntityDraft {
  const copy: EntityDraft = {
    fields: new Map([...draft.fields].map(([k, v]) => [k, { ...v }])),
    ttl: [...draft.ttl],
  };
  if (draft.collection !== undefined) copy.collection = draft.collection;
  if (draft.key) copy.key = { partition: [...draft.key.partition], clustering: [...draft.key.clustering] };
  if (draft.createdAt !== undefined) copy.createdAt = draft.createdAt;
  if (draft.updatedAt !== undefined) copy.updatedAt = draft.updatedAt;
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
  draft.key ??= { partition: [], clustering: [] };
  return draft.key;
}

export function ttlDraftFrom(input: unknown, origin: string, anchor?: string): TtlDraft {
  const isOptions = typeof input === 'object' && input !== null && isTtlOptions(input);
  if (isOptions) {
    const options = input as TtlOptions;
    return {
      value: options.ttl,
      hasValue: options.ttl !== undefined,
      perWrite: options.perWrite ?? false,
      anchor: anchor ?? options.member,
      expiryField: options.expiryField,
      origin,
    };
  }
  return { value: input, hasValue: true, perWrite: false, anchor, expiryField: undefined, origin };
}

const TTL_OPTION_KEYS = new Set(['ttl', 'perWrite', 'member', 'expiryField']);

/** `{ ttl: '1h', perWrite: true }` is options; `{ hours: 1 }` is a duration. */
function isTtlOptions(input: object): boolean {
  const keys = Object.keys(input);
  return keys.length > 0 && keys.some((k) => TTL_OPTION_KEYS.has(k));
}
