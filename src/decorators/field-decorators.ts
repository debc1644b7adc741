import { addIdentityMember, applyFieldOptions, keyDraft, type FieldOptions } from '../model/draft';
import type { SortOrder } from '../model/types';
import { memberSite, type MemberSite } from './standard';

/**
 * A member decorator usable with either TypeScript standard: legacy `(prototype, name)` and TC39
 * `(undefined, context)`. The overloads let both compilers type-check the same declaration.
 */
export interface MemberDecorator {
  (target: object, member: string | symbol): void;
  (value: undefined, context: ClassFieldDecoratorContext): void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (value: ClassAccessorDecoratorTarget<any, any>, context: ClassAccessorDecoratorContext): void;
}

/** Records a member as a field; every check waits for ModelBuilder.build(). */
function memberDecorator(name: string, record: (site: MemberSite) => void, options?: FieldOptions): MemberDecorator {
  return ((...args: unknown[]) => {
    const site = memberSite(name, args);
    applyFieldOptions(site.field, options);
    record(site);
  }) as MemberDecorator;
}

/** A stored member. `type` makes it work without decorator metadata (TC39 decorators, esbuild, Vite). */
export function Field(options?: FieldOptions): MemberDecorator {
  return memberDecorator('@Field', () => undefined, options);
}

/**
 * Identity. Alone (or with @ClusteringKey members) the @Key members are the partition key; with a
 * @PartitionKey they are the rest of the primary key, ordered within a partition (clustering members).
 */
export function Key(options?: FieldOptions): MemberDecorator {
  return memberDecorator('@Key', ({ draft, name }) => addIdentityMember(keyDraft(draft), name), options);
}

/** A member of the partition key (placement); several form a composite partition key in order. */
export function PartitionKey(options?: FieldOptions): MemberDecorator {
  return memberDecorator('@PartitionKey', ({ draft, name }) => keyDraft(draft).partition.push(name), options);
}

/** A member that orders rows within a partition. */
export function ClusteringKey(order: SortOrder = 'asc', options?: FieldOptions): MemberDecorator {
  return memberDecorator(
    '@ClusteringKey',
    ({ draft, name }) => keyDraft(draft).clustering.push({ member: name, order }),
    options,
  );
}

/** Set on insert; by convention the member a document-anchored TTL counts from. */
export function CreatedAt(options?: Omit<FieldOptions, 'type'>): MemberDecorator {
  return memberDecorator(
    '@CreatedAt',
    ({ draft, name }) => {
      draft.createdAt = name;
    },
    { ...options, type: 'date' },
  );
}

/** Set on every write; a TTL counting from it slides with each write. */
export function UpdatedAt(options?: Omit<FieldOptions, 'type'>): MemberDecorator {
  return memberDecorator(
    '@UpdatedAt',
    ({ draft, name }) => {
      draft.updatedAt = name;
    },
    { ...options, type: 'date' },
  );
}

/**
 * The record's version (optimistic concurrency): insert() stores 1, update() writes only over the
 * stored version and stores version + 1, delete(key, { ifVersion }) deletes only that version.
 * A whole number member; `type` defaults to 'integer' (no decorator metadata needed).
 */
export function Version(options?: Omit<FieldOptions, 'type' | 'nullable'>): MemberDecorator {
  return memberDecorator(
    '@Version',
    ({ draft, name, field }) => {
      field.type ??= 'integer';
      draft.versions.push(name);
    },
    options,
  );
}

/**
 * Each record expires at this Date member's instant (null: never); changing it moves the expiry
 * on the next write. An entity declares this or a @TimeToLive duration, not both.
 */
export function ExpiresAt(options?: Omit<FieldOptions, 'type'>): MemberDecorator {
  return memberDecorator(
    '@ExpiresAt',
    ({ draft, name }) => {
      (draft.expiresAt ??= []).push(name);
    },
    { ...options, type: 'date' },
  );
}
