import {
  addIdentityMember,
  applyFieldOptions,
  emptyKeyDraft,
  fieldDraft,
  ttlDraftFrom,
  type EntityDraft,
  type FieldOptions,
  type KeyDraft,
  type TtlOptions,
} from './draft';
import { ModelError } from '../errors';
import { showValue, type DurationInput, type DurationParts, type DurationString } from './duration';
import { memberName, type MemberSelector } from './member-selector';
import type { SortOrder } from './types';

type FluentTtlOptions = Omit<TtlOptions, 'ttl' | 'member'>;

/**
 * Fluent configuration of one entity. Every call records into a draft that is laid over the
 * decorated one, so a fluent setting wins over the decorator for the same setting.
 */
export class EntityConfigurator<T> {
  private fluentKey: KeyDraft | undefined;

  constructor(
    private readonly entityName: string,
    readonly draft: EntityDraft,
  ) {}

  toCollection(name: string): this {
    this.draft.collection = name;
    return this;
  }

  /**
   * An identity member, like @Key: alone the whole key; with .partitionKey() members it is the
   * rest of the primary key within a partition (see docs/declaring-ttl.md, Keys). The first fluent key call
   * replaces the decorated key.
   */
  key(selector: MemberSelector<T>, options?: FieldOptions): this {
    const member = this.recordMember(selector, options);
    addIdentityMember(this.ownKey(), member);
    return this;
  }

  /** Adds a partition key member; the first fluent key call replaces the decorated key. */
  partitionKey(selector: MemberSelector<T>, options?: FieldOptions): this {
    const member = this.recordMember(selector, options);
    this.ownKey().partition.push(member);
    return this;
  }

  clusteringKey(selector: MemberSelector<T>, order: SortOrder = 'asc', options?: FieldOptions): this {
    const member = this.recordMember(selector, options);
    this.ownKey().clustering.push({ member, order });
    return this;
  }

  field(selector: MemberSelector<T>, options?: FieldOptions): this {
    this.recordMember(selector, options);
    return this;
  }

  createdAt(selector: MemberSelector<T, Date | null | undefined>): this {
    const member = this.recordMember(selector, { type: 'date' });
    this.draft.createdAt = member;
    return this;
  }

  updatedAt(selector: MemberSelector<T, Date | null | undefined>): this {
    const member = this.recordMember(selector, { type: 'date' });
    this.draft.updatedAt = member;
    return this;
  }

  /**
   * The version member (optimistic concurrency), like @Version(): a whole number; `type` defaults
   * to 'integer'. A fluent .version() replaces the decorated one.
   */
  version(selector: MemberSelector<T, number>, options?: Omit<FieldOptions, 'nullable'>): this {
    const member = this.recordMember(selector, { type: 'integer', ...options });
    this.draft.versions = [member];
    return this;
  }

  /**
   * Each record expires at this Date member's instant (null: never), as @ExpiresAt; replaces a
   * decorated @ExpiresAt. An entity declares this or a timeToLive duration, not both.
   */
  expiresAt(selector: MemberSelector<T, Date | null | undefined>): this {
    const member = this.recordMember(selector, { type: 'date' });
    this.draft.expiresAt = [member];
    return this;
  }

  /**
   * `.timeToLive('1h')`, `.timeToLive('1h', { perWrite: true })`,
   * `.timeToLive(x => x.lastSeenAt, '1h')` (counts from that Date member),
   * or `.timeToLive({ perWrite: true })` (per-write TTLs only, no default).
   */
  timeToLive<D extends string = string>(
    value: number | DurationString<D> | DurationParts | TtlOptions,
    options?: FluentTtlOptions,
  ): this;
  timeToLive<D extends string = string>(
    member: MemberSelector<T, Date | null | undefined>,
    value: number | DurationString<D> | DurationParts,
    options?: FluentTtlOptions,
  ): this;
  timeToLive(
    first: DurationInput | TtlOptions | MemberSelector<T, Date | null | undefined>,
    second?: DurationInput | FluentTtlOptions,
    third?: FluentTtlOptions,
  ): this {
    // The fluent declaration replaces every decorated TTL: fluent wins for the same setting.
    this.draft.ttl = [];
    if (typeof first === 'function') {
      const member = this.recordMember(first as MemberSelector<T>);
      this.draft.ttl.push(
        ttlDraftFrom(mergeOptions(this.entityName, third, { ttl: second }), 'fluent timeToLive', member),
      );
      return this;
    }
    const options = second as FluentTtlOptions | undefined;
    const input = isPlainOptions(first)
      ? mergeOptions(this.entityName, first, options)
      : mergeOptions(this.entityName, options, { ttl: first });
    this.draft.ttl.push(ttlDraftFrom(input, 'fluent timeToLive'));
    return this;
  }

  private recordMember(selector: MemberSelector<T>, options?: FieldOptions): string {
    const member = memberName(selector, this.entityName);
    applyFieldOptions(fieldDraft(this.draft, member), options);
    return member;
  }

  private ownKey(): KeyDraft {
    if (!this.fluentKey) {
      this.fluentKey = emptyKeyDraft();
      this.draft.key = this.fluentKey;
    }
    return this.fluentKey;
  }
}

function isPlainOptions(value: unknown): value is TtlOptions {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return ['ttl', 'perWrite', 'member', 'expiryField'].some((k) => Object.hasOwn(value, k));
  } catch {
    return false;
  }
}

/** `{ ...a, ...b }`, except that a getter that throws becomes a model problem instead of a crash. */
function mergeOptions(entity: string, a: object | undefined, b: object | undefined): object {
  try {
    return { ...a, ...b };
  } catch (error) {
    throw new ModelError([
      {
        code: 'MODEL_TTL_OPTIONS',
        entity,
        message: `fluent timeToLive: the options throw when read (${showValue(error instanceof Error ? error.message : error)})`,
        hint: 'pass a plain options object',
      },
    ]);
  }
}
