import { ProblemList, TtlError } from '../../errors';
import { showValue } from '../../model/duration';
import { fieldOf, type EntityModel, type Model } from '../../model/types';
import {
  DEFAULT_PARTITION_KEY_PATH,
  MAX_COSMOS_TTL,
  RESERVED_PROPERTIES,
  STORE,
  TTL_ON_NO_DEFAULT,
  TYPE_PROPERTY,
} from './semantics';

/** The container a model needs, as plain data (what inspect() reads back is compared with it). */
export interface ContainerSpec {
  readonly id: string;
  readonly partitionKeyPath: string;
  /** null: no defaultTtl property (TTL off); -1: on, no default; n: items expire n s after _ts. */
  readonly defaultTtl: number | null;
  /** Entity names mapped to it. */
  readonly entities: readonly string[];
}

/** How one entity's key maps to the item's id and partition key. */
export interface EntityLayout {
  readonly entity: string;
  readonly container: string;
  /** Members whose values make the item id, in order (one: the value itself; several: joined). */
  readonly idMembers: readonly string[];
  /** The member whose value is the partition key; null when the partition key path is /id. */
  readonly partitionMember: string | null;
  readonly partitionKeyPath: string;
  /** Several entities share the container: reads filter on the $type property. */
  readonly shared: boolean;
}

export interface CosmosSchema {
  readonly containers: readonly ContainerSpec[];
  readonly layouts: readonly EntityLayout[];
}

/** Compiles the model to the containers it needs; throws one ModelError listing every problem. */
export function compileCosmos(model: Model): CosmosSchema {
  const problems = new ProblemList();
  const drafts: Array<{ entity: EntityModel; layout: Omit<EntityLayout, 'shared'>; defaultTtl: number | null }> = [];
  for (const entity of model.entities) {
    const layout = layoutOf(entity, problems);
    const defaultTtl = problems.collect({ entity: entity.name, store: STORE }, () => containerDefaultTtl(entity));
    checkStoredNames(entity, layout, problems);
    if (defaultTtl !== undefined) drafts.push({ entity, layout, defaultTtl });
  }

  // Keyed by id (insertion order kept): a scan per entity made compiling quadratic in the model size.
  const byId = new Map<string, ContainerSpec & { readonly entities: string[] }>();
  for (const { entity, layout, defaultTtl } of drafts) {
    const existing = byId.get(layout.container);
    if (!existing) {
      byId.set(layout.container, {
        id: layout.container,
        partitionKeyPath: layout.partitionKeyPath,
        defaultTtl,
        entities: [entity.name],
      });
      continue;
    }
    const first = existing.entities[0] ?? '';
    if (existing.defaultTtl !== defaultTtl) {
      problems.add({
        entity: entity.name,
        store: STORE,
        code: 'COSMOS_CONTAINER_TTL_DISAGREES',
        message:
          `shares container '${layout.container}' with ${first}, but needs DefaultTimeToLive ` +
          `${describeDefaultTtl(defaultTtl)} where ${first} needs ${describeDefaultTtl(existing.defaultTtl)}`,
        hint: 'DefaultTimeToLive is one setting per container: give both entities the same TTL, or map them to different containers',
      });
    }
    if (existing.partitionKeyPath !== layout.partitionKeyPath) {
      problems.add({
        entity: entity.name,
        store: STORE,
        code: 'COSMOS_CONTAINER_PARTITION_KEY_DISAGREES',
        message:
          `shares container '${layout.container}' with ${first}, but needs partition key ` +
          `${layout.partitionKeyPath} where ${first} needs ${existing.partitionKeyPath}`,
        hint: 'a container has one partition key path: align the @PartitionKey members, or map them to different containers',
      });
    }
    existing.entities.push(entity.name);
  }
  problems.throwIfAny();

  const containers: ContainerSpec[] = [...byId.values()];
  const layouts = drafts.map(({ layout }) => ({
    ...layout,
    shared: (byId.get(layout.container)?.entities.length ?? 1) > 1,
  }));
  return { containers, layouts };
}

/**
 * The container DefaultTimeToLive an entity needs: its TTL (n), -1 when it only declares per-write
 * TTLs (TTL on, no default: item ttl works), null when it has no TTL (property absent).
 */
export function containerDefaultTtl(entity: EntityModel): number | null {
  const ttl = entity.ttl;
  if (!ttl) return null;
  if (ttl.seconds === null) return TTL_ON_NO_DEFAULT;
  checkCosmosTtl(ttl.seconds, { entity: entity.name });
  return ttl.seconds;
}

/** Throws a TtlError unless the value is a DefaultTimeToLive / item ttl the service accepts. */
export function checkCosmosTtl(seconds: number, place: { entity?: string; member?: string } = {}): number {
  const valid =
    Number.isInteger(seconds) && (seconds === TTL_ON_NO_DEFAULT || (seconds >= 1 && seconds <= MAX_COSMOS_TTL));
  if (valid) return seconds;
  throw new TtlError('COSMOS_TTL_OUT_OF_RANGE', seconds, `TTL ${showValue(seconds)} is not a valid Cosmos DB ttl`, {
    ...place,
    store: STORE,
    hint: `Cosmos DB accepts a whole number of seconds from 1 to ${MAX_COSMOS_TTL}, or -1 (never); 0 and null are rejected`,
  });
}

export function describeDefaultTtl(defaultTtl: number | null): string {
  if (defaultTtl === null) return 'absent (TTL off)';
  if (defaultTtl === TTL_ON_NO_DEFAULT) return '-1 (on, no default)';
  return String(defaultTtl);
}

/**
 * Key mapping. Cosmos identifies an item by (partition key value, id):
 * - a lone @Key / @PartitionKey member is the id, and the partition key path is /id;
 * - a @PartitionKey with @ClusteringKey members: the partition member gives the partition key path,
 *   the clustering members make the id (unique within a logical partition, as clustering keys are).
 * Several partition members would need hierarchical partition keys, which lifespan does not map.
 */
function layoutOf(entity: EntityModel, problems: ProblemList): Omit<EntityLayout, 'shared'> {
  const { partition, clustering } = entity.key;
  const base = { entity: entity.name, container: entity.collection };
  if (partition.length > 1) {
    problems.add({
      entity: entity.name,
      store: STORE,
      code: 'COSMOS_COMPOSITE_PARTITION_KEY',
      message: `has ${partition.length} partition key members (${partition.join(', ')}); lifespan maps one Cosmos partition key path`,
      hint: 'keep one @PartitionKey and make the other members @ClusteringKey (they form the item id)',
    });
  }
  const first = partition[0];
  if (first === undefined) {
    return { ...base, idMembers: [], partitionMember: null, partitionKeyPath: DEFAULT_PARTITION_KEY_PATH };
  }
  if (clustering.length === 0) {
    return { ...base, idMembers: [first], partitionMember: null, partitionKeyPath: DEFAULT_PARTITION_KEY_PATH };
  }
  const storedName = fieldOf(entity, first)?.storedName ?? first;
  return {
    ...base,
    idMembers: clustering.map((c) => c.member),
    partitionMember: first,
    partitionKeyPath: `/${storedName}`,
  };
}

function checkStoredNames(entity: EntityModel, layout: Omit<EntityLayout, 'shared'>, problems: ProblemList): void {
  const soleIdMember = layout.idMembers.length === 1 ? layout.idMembers[0] : undefined;
  for (const field of entity.fields) {
    if (RESERVED_PROPERTIES.includes(field.storedName) || field.storedName === TYPE_PROPERTY) {
      problems.add({
        entity: entity.name,
        member: field.member,
        store: STORE,
        code: 'COSMOS_RESERVED_NAME',
        message: `stored name '${field.storedName}' is a property Cosmos DB owns or interprets`,
        hint: `store it under another name, e.g. @Field({ name: '${field.storedName.replace(/^_+/, '')}Value' })`,
      });
    }
    if (field.storedName === 'id' && field.member !== soleIdMember) {
      problems.add({
        entity: entity.name,
        member: field.member,
        store: STORE,
        code: 'COSMOS_RESERVED_NAME',
        message: `stored name 'id' is the item id, which holds ${layout.idMembers.join(', ') || 'the key'} here`,
        hint: "store it under another name, e.g. @Field({ name: 'externalId' })",
      });
    }
  }
}
