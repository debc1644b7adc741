/** The validated, store-agnostic model: plain frozen data that every provider compiles. */

/** Value kinds a member can hold; each provider maps them to its native types. */
export const FIELD_TYPES = [
  'string',
  'number',
  'integer',
  'bigint',
  'boolean',
  'date',
  'uuid',
  'json',
  'binary',
  'counter',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

// A constructor of entity instances: the class given to the builder.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EntityClass<T = any> = new (...args: any[]) => T;

export type SortOrder = 'asc' | 'desc';

export interface FieldModel {
  /** Property name on the class. */
  readonly member: string;
  /** Column / attribute name in the store. */
  readonly storedName: string;
  readonly type: FieldType;
  readonly nullable: boolean;
}

export interface ClusteringMember {
  readonly member: string;
  readonly order: SortOrder;
}

export interface KeyModel {
  /** Members that decide placement (partition key); a lone @Key is the partition key. */
  readonly partition: readonly string[];
  /** Members that order rows within a partition. */
  readonly clustering: readonly ClusteringMember[];
}

/**
 * Where a member-anchored TTL counts from. `explicit`: the member named in the declaration;
 * `createdAt` / `updatedAt`: the conventional member found by role (updatedAt = sliding expiry).
 */
export interface TtlAnchor {
  readonly member: string;
  readonly source: 'explicit' | 'createdAt' | 'updatedAt';
}

export interface TtlModel {
  /** Declared default lifetime in seconds; null when only per-write TTLs are declared. */
  readonly seconds: number | null;
  /** The declaration as written, for messages ('1h', 3600, 'PT1H'). */
  readonly declared: string;
  /** The date member a document-anchored store counts from, when one can be resolved. */
  readonly anchor: TtlAnchor | null;
  /** Whether writes may carry their own TTL (stores that need setup for it prepare it). */
  readonly perWrite: boolean;
  /** Member/field that holds a per-record absolute expiry instant where a store needs one. */
  readonly expiryField: string;
  /**
   * @ExpiresAt / `.expiresAt(x => x.m)`: the Date member whose value is each record's expiry
   * instant (null: never expires). With one, `seconds` is null, `perWrite` false and `anchor` null.
   */
  readonly instantMember: string | null;
}

export interface EntityModel {
  /** Class name. */
  readonly name: string;
  /** Table / collection / container name. */
  readonly collection: string;
  readonly target: EntityClass;
  readonly fields: readonly FieldModel[];
  readonly key: KeyModel;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly ttl: TtlModel | null;
  /** The @Version member (optimistic concurrency: update() and delete({ ifVersion })), or null. */
  readonly version: string | null;
}

/** The field types a @Version member may have: whole numbers the store compares and increments. */
export const VERSION_FIELD_TYPES: readonly FieldType[] = ['integer', 'number'];

export interface Model {
  readonly entities: readonly EntityModel[];
}

export const DEFAULT_EXPIRY_FIELD = 'expiresAt';

export function findEntity(model: Model, target: EntityClass | string): EntityModel | undefined {
  return model.entities.find((e) => (typeof target === 'string' ? e.name === target : e.target === target));
}

export function fieldOf(entity: EntityModel, member: string): FieldModel | undefined {
  return entity.fields.find((f) => f.member === member);
}

export function keyMembers(entity: EntityModel): string[] {
  return [...entity.key.partition, ...entity.key.clustering.map((c) => c.member)];
}
